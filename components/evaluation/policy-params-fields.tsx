"use client";

import { ParamsEditor } from "@/components/compaction/params-editor";
import { coerceParam } from "@/components/compaction/url-state";
import type { ParamValue } from "@/lib/compaction/policies/types";
import type { PolicyInfo } from "@/server/compaction/compaction-api";

/**
 * The parameters of each policy chosen for a run, with the replay page's editor (one per policy
 * that has any). Only changed values are sent; a value that does not parse as its type is sent as
 * typed, so the server's check against the policy's parameter specs names it by field.
 */
export function PolicyParamsFields({
  policies,
  texts,
  errors,
  onChange,
  onReset,
}: {
  policies: PolicyInfo[];
  texts: Record<string, Record<string, string>>;
  errors: (policyId: string) => Record<string, string[]>;
  onChange(policyId: string, name: string, text: string): void;
  onReset(policyId: string): void;
}) {
  const withParams = policies.filter((p) => p.params.length > 0);
  if (withParams.length === 0) return null;
  return (
    <fieldset className="field">
      <legend>Policy parameters</legend>
      {withParams.map((p) => (
        <div key={p.id} data-testid={`params-${p.id}`}>
          <span className="mono">{p.id}</span>
          <ParamsEditor
            policy={p}
            texts={texts[p.id] ?? {}}
            idPrefix={`param-${p.id}-`}
            errors={errors(p.id)}
            onChange={(name, text) => onChange(p.id, name, text)}
            onReset={() => onReset(p.id)}
          />
        </div>
      ))}
    </fieldset>
  );
}

/** The changed parameters of one policy, typed where the text parses; undefined when none changed. */
export function paramsForSubmit(policy: PolicyInfo, texts: Record<string, string>): Record<string, ParamValue> | undefined {
  const out: Record<string, ParamValue> = {};
  for (const spec of policy.params) {
    const text = texts[spec.name];
    if (text === undefined || text === String(spec.default)) continue;
    out[spec.name] = coerceParam(spec, text) ?? text;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Field errors `policies.<i>.params.<name>` of the i-th submitted policy, by parameter name. */
export function paramErrorsOf(fields: Record<string, string[]>, index: number): Record<string, string[]> {
  if (index < 0) return {};
  const prefix = `policies.${index}.params.`;
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fields)) if (key.startsWith(prefix)) out[key.slice(prefix.length)] = messages;
  return out;
}
