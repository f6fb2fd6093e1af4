"use client";

import type { PolicyInfo } from "@/server/compaction/compaction-api";
import { coerceParam } from "./url-state";
import fieldStyles from "./fields.module.css";
import styles from "./params-editor.module.css";

/**
 * The chosen policy's parameters as fields, prefilled with their defaults. Values are kept as
 * typed text; a value that does not parse as the parameter's type is flagged and blocks Run.
 * `idPrefix` keeps field ids unique when several editors share a page (the evaluation form shows
 * one per chosen policy); `errors` are the server's messages by parameter name.
 */
export function ParamsEditor({
  policy,
  texts,
  onChange,
  onReset,
  idPrefix = "param-",
  errors = {},
}: {
  policy: PolicyInfo;
  texts: Record<string, string>;
  onChange(name: string, text: string): void;
  onReset(): void;
  idPrefix?: string;
  errors?: Record<string, string[]>;
}) {
  const changed = policy.params.filter((s) => (texts[s.name] ?? String(s.default)) !== String(s.default)).length;
  return (
    <details className={styles.params} open={changed > 0 || Object.keys(errors).length > 0 || undefined}>
      <summary>
        Parameters ({policy.params.length}){changed > 0 ? ` · ${changed} changed` : ""}
      </summary>
      {policy.params.length === 0 ? (
        <p className={fieldStyles.hint}>This policy has no parameters.</p>
      ) : (
        <>
          <div className={styles.paramGrid}>
            {policy.params.map((spec) => {
              const id = `${idPrefix}${spec.name}`;
              const text = texts[spec.name] ?? String(spec.default);
              const invalid = coerceParam(spec, text) === undefined;
              const isChanged = text !== String(spec.default);
              return (
                <div key={spec.name} className={styles.param} data-changed={isChanged || undefined}>
                  <label htmlFor={id}>{spec.name}</label>
                  {typeof spec.default === "boolean" ? (
                    <select id={id} className="select" value={text} onChange={(e) => onChange(spec.name, e.target.value)} style={{ height: 26, fontSize: 12 }}>
                      <option value="true">true</option>
                      <option value="false">false</option>
                    </select>
                  ) : (
                    <input
                      id={id}
                      className="input"
                      type={typeof spec.default === "number" ? "number" : "text"}
                      step="any"
                      value={text}
                      aria-invalid={invalid || undefined}
                      onChange={(e) => onChange(spec.name, e.target.value)}
                    />
                  )}
                  <span className={styles.paramHelp}>
                    {spec.description} <span className="mono">(default {String(spec.default)})</span>
                  </span>
                  {invalid ? <span className="field-error">must be a {typeof spec.default}</span> : null}
                  {errors[spec.name] ? (
                    <span className="field-error" role="alert">
                      {errors[spec.name]!.join(" ")}
                    </span>
                  ) : null}
                </div>
              );
            })}
          </div>
          <div className={styles.paramActions}>
            <button type="button" className="btn btn-sm" onClick={onReset} disabled={changed === 0}>
              Reset to defaults
            </button>
          </div>
        </>
      )}
    </details>
  );
}
