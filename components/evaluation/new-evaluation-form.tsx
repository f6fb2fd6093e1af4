"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { createEvaluationAction } from "@/app/_actions/evaluation";
import { DEFAULT_CUT_LEVELS, DENSE_CUT_LEVELS, parseCutLevelsText } from "@/lib/evaluation/cuts/cut-levels";
import { DEFAULT_POINTER_STYLE, type PointerStyle } from "@/lib/compaction/projection/pointers";
import type { PolicyInfo } from "@/server/compaction/compaction-api";
import { RunFormCard } from "@/components/ui/run-form-card";
import { HarnessFields, matchedPolicy } from "./harness-fields";
import { PolicyParamsFields, paramsForSubmit, paramErrorsOf } from "./policy-params-fields";
import { parseSweepField, sweepErrorsFromFields } from "./sweep-field";

export interface SavedFilterChoice {
  id: string;
  name: string;
  /** The filter in its `--filter` text form. */
  text: string;
}

type SuiteChoice = "all" | "hard" | "format" | "saved";

/**
 * "New evaluation": suite (all sessions, the Hard Set, one format, or a saved filter), a policy
 * checklist with select-all and each chosen policy's parameters, the judge, the trigger level and
 * the cut levels (the replay protocol's token shares; "dense: every 10%" gives ten or more cuts of
 * a long session, for labeling), and the harness settings every policy runs under (harness-fields:
 * pointer style, matched budgets, budget sweep).
 * The run is created by a server action (which copies a saved filter into the run's settings) and
 * executes in the background; on success the page for the new run opens and shows its progress.
 */
export function NewEvaluationForm({
  policies,
  formats,
  savedFilters,
  llmAvailable,
}: {
  policies: PolicyInfo[];
  formats: string[];
  savedFilters: SavedFilterChoice[];
  llmAvailable: boolean;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [suite, setSuite] = useState<SuiteChoice>("all");
  const [format, setFormat] = useState(formats[0] ?? "");
  const [savedId, setSavedId] = useState(savedFilters[0]?.id ?? "");
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [paramTexts, setParamTexts] = useState<Record<string, Record<string, string>>>({});
  const [cutLevels, setCutLevels] = useState(DEFAULT_CUT_LEVELS.join(","));
  const [pointers, setPointers] = useState<PointerStyle>(DEFAULT_POINTER_STYLE);
  /** undefined: the default (self-gc when chosen, else off); "" off; else a policy id. */
  const [matchChoice, setMatchChoice] = useState<string | undefined>(undefined);
  const [sweep, setSweep] = useState("");
  const [error, setError] = useState<{ message: string; fields: Record<string, string[]> } | null>(null);
  const cutLevelErrors = cutLevelErrorsOf(error?.fields ?? {});
  const sweepField = parseSweepField(sweep);
  const sweepErrors = error ? sweepErrorsFromFields(error.fields, sweepField.ok ? sweepField.levels : undefined) : [];
  const allChosen = chosen.size === policies.length;
  const picked = policies.filter((p) => chosen.has(p.id));
  const saved = savedFilters.find((f) => f.id === savedId);

  const toggle = (id: string) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const match = matchedPolicy(
    matchChoice,
    picked.map((p) => p.id),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!sweepField.ok) {
      // The field shows its errors as they are typed; nothing is sent until they are fixed.
      document.getElementById("eval-sweep")?.focus();
      return;
    }
    const form = new FormData(event.currentTarget);
    const useSaved = suite === "saved" && saved !== undefined;
    const settings = {
      suite: suite === "hard" ? { kind: "hard" } : suite === "format" ? { kind: "filter", filter: { formats: [format] } } : { kind: "all" },
      policies: picked.map((p) => {
        const params = paramsForSubmit(p, paramTexts[p.id] ?? {});
        return params ? { id: p.id, params } : { id: p.id };
      }),
      judge: String(form.get("judge")),
      triggerLevel: Number(form.get("triggerLevel")) / 100,
      cutLevels: parseCutLevelsText(cutLevels),
      pointers,
      ...(sweepField.levels ? { sweep: sweepField.levels } : {}),
      ...(match ? { match } : {}),
    };
    const name = String(form.get("name") ?? "").trim();
    startTransition(async () => {
      const result = await createEvaluationAction({ settings, ...(name ? { name } : {}), ...(useSaved ? { savedFilterId: saved.id } : {}) });
      if (result.ok) router.push(`/evaluations/${result.data.runId}`);
      else setError({ message: result.message, fields: result.fieldErrors ?? {} });
    });
  };

  return (
    <RunFormCard
      heading="New evaluation"
      idPrefix="eval"
      namePlaceholder="Baselines vs Self-GC"
      onSubmit={onSubmit}
      error={error?.message ?? null}
      pending={pending}
      submitLabel="Start evaluation"
    >
      <fieldset className="field">
        <legend>Suite</legend>
        <label>
          <input type="radio" name="suite" checked={suite === "all"} onChange={() => setSuite("all")} /> All sessions
        </label>
        <label>
          <input type="radio" name="suite" checked={suite === "hard"} onChange={() => setSuite("hard")} /> Hard Set (highest sustained tool pressure)
        </label>
        <label>
          <input type="radio" name="suite" checked={suite === "format"} onChange={() => setSuite("format")} disabled={formats.length === 0} /> Format{" "}
          <select
            className="select"
            aria-label="Suite format"
            value={format}
            onChange={(e) => {
              setFormat(e.target.value);
              setSuite("format");
            }}
            disabled={formats.length === 0}
          >
            {formats.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="radio" name="suite" checked={suite === "saved"} onChange={() => setSuite("saved")} disabled={savedFilters.length === 0} /> Saved filter{" "}
          <select
            className="select"
            aria-label="Saved suite filter"
            value={savedId}
            onChange={(e) => {
              setSavedId(e.target.value);
              setSuite("saved");
            }}
            disabled={savedFilters.length === 0}
          >
            {savedFilters.length === 0 ? (
              <option value="">none saved yet (Suites, above)</option>
            ) : (
              savedFilters.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))
            )}
          </select>
        </label>
        {suite === "saved" && saved ? <span className="faint mono">--filter {saved.text}</span> : null}
        {error?.fields.suite ? <span className="field-error">{error.fields.suite.join(" ")}</span> : null}
      </fieldset>
      <fieldset className="field" aria-describedby={error?.fields.policies ? "eval-policies-error" : undefined}>
        <legend>Policies</legend>
        <label>
          <input type="checkbox" checked={allChosen} onChange={() => setChosen(allChosen ? new Set() : new Set(policies.map((p) => p.id)))} /> Select all
        </label>
        <div className="eval-policy-grid" style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(210px, 1fr))", gap: 4 }}>
          {policies.map((p) => (
            <label key={p.id} title={p.family}>
              <input type="checkbox" name="policy" value={p.id} checked={chosen.has(p.id)} onChange={() => toggle(p.id)} /> <span className="mono">{p.id}</span>
            </label>
          ))}
        </div>
        {error?.fields.policies ? (
          <span id="eval-policies-error" className="field-error">
            {error.fields.policies.join(" ")}
          </span>
        ) : null}
      </fieldset>
      <PolicyParamsFields
        policies={picked}
        texts={paramTexts}
        errors={(id) =>
          paramErrorsOf(
            error?.fields ?? {},
            picked.findIndex((p) => p.id === id),
          )
        }
        onChange={(id, name, text) => setParamTexts((all) => ({ ...all, [id]: { ...all[id], [name]: text } }))}
        onReset={(id) => setParamTexts((all) => ({ ...all, [id]: {} }))}
      />
      <div className="grid-2">
        <div className="field">
          <label htmlFor="eval-judge">Judge</label>
          <select id="eval-judge" name="judge" className="select" defaultValue="dependency">
            <option value="dependency">Dependency (deterministic)</option>
            <option value="llm" disabled={!llmAvailable}>
              LLM{llmAvailable ? "" : " (no endpoint configured)"}
            </option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="eval-trigger">Trigger level (% of the window at each cut)</label>
          <input id="eval-trigger" name="triggerLevel" type="number" className="input" min={10} max={100} step={1} defaultValue={90} />
          {error?.fields.triggerLevel ? <span className="field-error">{error.fields.triggerLevel.join(" ")}</span> : null}
        </div>
      </div>
      <div className="field">
        <label htmlFor="eval-cut-levels">Cut levels (% of each session&apos;s tokens)</label>
        <input
          id="eval-cut-levels"
          name="cutLevels"
          className="input mono"
          value={cutLevels}
          onChange={(e) => setCutLevels(e.target.value)}
          aria-describedby="eval-cut-levels-help"
          aria-invalid={cutLevelErrors.length > 0}
        />
        <span id="eval-cut-levels-help" className="faint">
          Each session is cut at its native compactions and at the first safe boundary reaching each level.{" "}
          <button type="button" className="btn btn-sm" onClick={() => setCutLevels(DEFAULT_CUT_LEVELS.join(","))}>
            default: {DEFAULT_CUT_LEVELS.join(",")}
          </button>{" "}
          <button type="button" className="btn btn-sm" onClick={() => setCutLevels(DENSE_CUT_LEVELS.join(","))}>
            dense: every 10%
          </button>
        </span>
        {cutLevelErrors.length > 0 ? <span className="field-error">{cutLevelErrors.join(" ")}</span> : null}
      </div>
      <HarnessFields
        policies={picked.map((p) => p.id)}
        pointers={pointers}
        onPointers={setPointers}
        match={match}
        onMatch={setMatchChoice}
        sweep={sweep}
        onSweep={(text) => {
          setSweep(text);
          // The server's sweep errors were about the old text.
          setError((e) =>
            e ? { ...e, fields: Object.fromEntries(Object.entries(e.fields).filter(([key]) => key !== "sweep" && !key.startsWith("sweep."))) } : e,
          );
        }}
        sweepErrors={sweepField.ok ? sweepErrors : sweepField.errors}
        matchErrors={error?.fields.match ?? []}
      />
    </RunFormCard>
  );
}

/** The form's cut level errors: `cutLevels` (the list) and `cutLevels.<i>` (level i + 1). */
function cutLevelErrorsOf(fields: Record<string, string[]>): string[] {
  return Object.entries(fields).flatMap(([key, messages]) => {
    if (key === "cutLevels") return messages;
    const at = /^cutLevels\.(\d+)$/.exec(key);
    return at ? messages.map((m) => `level ${Number(at[1]) + 1}: ${m}`) : [];
  });
}
