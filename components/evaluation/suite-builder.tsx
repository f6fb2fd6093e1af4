"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState, useTransition } from "react";
import { deleteSuiteFilterAction, previewSuiteAction, saveSuiteFilterAction } from "@/app/_actions/evaluation-suites";
import { WORKLOADS } from "@/lib/evaluation/suites/workload";
import type { SavedFilterChoice } from "./new-evaluation-form";

interface Draft {
  name: string;
  formats: string[];
  workloads: string[];
  models: string;
  tools: string;
  minMessages: string;
  maxMessages: string;
  minTokens: string;
  maxTokens: string;
  native: "" | "true" | "false";
}
const EMPTY: Draft = {
  name: "",
  formats: [],
  workloads: [],
  models: "",
  tools: "",
  minMessages: "",
  maxMessages: "",
  minTokens: "",
  maxTokens: "",
  native: "",
};
const LENGTHS = [
  ["minMessages", "Min messages"],
  ["maxMessages", "Max messages"],
  ["minTokens", "Min tokens"],
  ["maxTokens", "Max tokens"],
] as const;

/**
 * "Suites": build a filter over format, workload (dominant tool class), model, tool and length,
 * see live how many stored sessions and replay cuts it selects, and save it under a name for the
 * run form. The server validates (located messages per field) and counts from cached session
 * summaries; the same filter's `--filter` text is shown so the CLI can reproduce it.
 */
export function SuiteBuilder({ formats, saved }: { formats: string[]; saved: SavedFilterChoice[] }) {
  const router = useRouter();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [count, setCount] = useState<{ sessions: number; cuts: number } | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const filter = useMemo(() => toFilter(draft), [draft]);
  const filterKey = JSON.stringify(filter);

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(async () => {
      const result = await previewSuiteAction({ filter: JSON.parse(filterKey) });
      if (stale) return;
      if (result.ok) {
        setCount(result.data);
        setFields({});
      } else {
        setCount(null);
        setFields(unprefixed(result.fieldErrors));
      }
    }, 300);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [filterKey]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const toggle = (key: "formats" | "workloads", value: string) =>
    set(key, draft[key].includes(value) ? draft[key].filter((v) => v !== value) : [...draft[key], value]);
  const save = () =>
    startTransition(async () => {
      const result = await saveSuiteFilterAction({ name: draft.name, filter });
      if (result.ok) {
        setMessage(`Saved “${draft.name.trim()}”.`);
        setFields({});
        router.refresh();
      } else {
        setMessage(result.message);
        setFields(unprefixed(result.fieldErrors));
      }
    });
  const remove = (id: string) =>
    startTransition(async () => {
      const result = await deleteSuiteFilterAction(id);
      setMessage(result.ok ? "Deleted." : result.message);
      router.refresh();
    });
  const err = (key: string) =>
    fields[key] ? (
      <span className="field-error" role="alert">
        {fields[key]!.join(" ")}
      </span>
    ) : null;

  return (
    <section className="card card-body" aria-labelledby="suites-heading">
      <div className="stack">
        <h2 id="suites-heading">Suites</h2>
        <fieldset className="field">
          <legend>Formats (any of)</legend>
          {formats.map((f) => (
            <label key={f}>
              <input type="checkbox" checked={draft.formats.includes(f)} onChange={() => toggle("formats", f)} /> <span className="mono">{f}</span>
            </label>
          ))}
          {err("formats")}
        </fieldset>
        <fieldset className="field">
          <legend>Workload: dominant tool class (any of)</legend>
          {WORKLOADS.map((w) => (
            <label key={w}>
              <input type="checkbox" checked={draft.workloads.includes(w)} onChange={() => toggle("workloads", w)} /> {w}
            </label>
          ))}
          {err("workloads")}
        </fieldset>
        <div className="grid-2">
          <div className="field">
            <label htmlFor="suite-models">Model contains (comma-separated, any of)</label>
            <input id="suite-models" className="input" value={draft.models} onChange={(e) => set("models", e.target.value)} placeholder="sonnet, gpt-4o" />
            {err("models")}
          </div>
          <div className="field">
            <label htmlFor="suite-tools">Tool used (comma-separated, any of)</label>
            <input id="suite-tools" className="input" value={draft.tools} onChange={(e) => set("tools", e.target.value)} placeholder="exec, read" />
            {err("tools")}
          </div>
        </div>
        <div className="grid-2">
          {LENGTHS.map(([key, label]) => (
            <div className="field" key={key}>
              <label htmlFor={`suite-${key}`}>{label}</label>
              <input
                id={`suite-${key}`}
                className="input"
                inputMode="numeric"
                value={draft[key]}
                onChange={(e) => set(key, e.target.value)}
                aria-invalid={fields[key] ? true : undefined}
              />
              {err(key)}
            </div>
          ))}
        </div>
        <div className="field">
          <label htmlFor="suite-native">Native compaction</label>
          <select id="suite-native" className="select" value={draft.native} onChange={(e) => set("native", e.target.value as Draft["native"])}>
            <option value="">any</option>
            <option value="true">recorded at least one</option>
            <option value="false">none recorded</option>
          </select>
        </div>
        <p data-testid="suite-count" aria-live="polite">
          {count
            ? `${count.sessions} session${count.sessions === 1 ? "" : "s"} · ${count.cuts} cut${count.cuts === 1 ? "" : "s"} match`
            : Object.keys(fields).length > 0
              ? "Fix the highlighted fields."
              : "Counting…"}
        </p>
        <div className="field">
          <label htmlFor="suite-name">Save as</label>
          <input
            id="suite-name"
            className="input"
            maxLength={100}
            value={draft.name}
            onChange={(e) => set("name", e.target.value)}
            placeholder="Long shell sessions"
          />
          {err("name")}
        </div>
        <div>
          <button type="button" className="btn" onClick={save} disabled={pending}>
            Save filter
          </button>
        </div>
        {message ? <p role="status">{message}</p> : null}
        {saved.length > 0 ? (
          <table className="table" aria-label="Saved filters">
            <thead>
              <tr>
                <th>Saved filter</th>
                <th>CLI</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {saved.map((f) => (
                <tr key={f.id}>
                  <td>{f.name}</td>
                  <td className="mono">{f.text ? `--filter ${f.text}` : "(every session)"}</td>
                  <td>
                    <button type="button" className="btn btn-sm" onClick={() => remove(f.id)} disabled={pending} aria-label={`Delete ${f.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </section>
  );
}

/** Field errors keyed as the builder's fields (`filter.maxMessages` → `maxMessages`, `filter.formats.0` → `formats`). */
function unprefixed(fields: Record<string, string[]> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fields ?? {})) (out[key.replace(/^filter\./, "").replace(/\.\d+$/, "")] ??= []).push(...messages);
  return out;
}

/** The draft as the SuiteFilter the server validates; numbers that do not parse are sent as typed so the error names the field. */
function toFilter(d: Draft): Record<string, unknown> {
  const list = (text: string) =>
    text
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const out: Record<string, unknown> = {};
  if (d.formats.length > 0) out.formats = d.formats;
  if (d.workloads.length > 0) out.workloads = d.workloads;
  if (list(d.models).length > 0) out.models = list(d.models);
  if (list(d.tools).length > 0) out.tools = list(d.tools);
  for (const [key] of LENGTHS) {
    const text = d[key].trim();
    if (text !== "") out[key] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  }
  if (d.native !== "") out.hasNativeCompaction = d.native === "true";
  return out;
}
