"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { createRolloutAction } from "@/app/_actions/rollout";
import { RunFormCard } from "@/components/ui/run-form-card";

export interface RolloutSessionChoice {
  id: string;
  title: string;
  format: string;
}

/**
 * "New rollout": the sessions (all, or picked ones), the policies (self-gc, tool-prune, oldest-turn
 * and none checked by default) and the CLI's flags — window (empty: per session), trigger, cache
 * TTL, prices (empty: each session at its model's list price), and Self-GC's planner (its rules, or
 * the configured model as `--planner llm`; disabled, saying so, without an endpoint), and the
 * harness's hard limit (`--hard-limit`). The server checks every field with
 * the CLI's own parsers and answers per field; on success the run's page opens and shows progress.
 */
export function NewRolloutForm({
  policies,
  defaultPolicies,
  sessions,
  totalSessions,
  plannerAvailable,
}: {
  policies: string[];
  defaultPolicies: readonly string[];
  sessions: RolloutSessionChoice[];
  totalSessions: number;
  /** Whether an LLM endpoint serves the planner (else the LLM planner is offered disabled, saying why). */
  plannerAvailable: boolean;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [chosen, setChosen] = useState<Set<string>>(new Set(defaultPolicies));
  const [which, setWhich] = useState<"all" | "sessions">("all");
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<{ message: string; fields: Record<string, string[]> } | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const windowText = text("window");
    const input = {
      name: text("name") || undefined,
      settings: {
        policies: policies.filter((p) => chosen.has(p)),
        ...(windowText ? { window: Number(windowText) } : {}),
        trigger: text("trigger"),
        cacheTtl: text("cacheTtl"),
        prices: text("prices"),
        planner: text("planner"),
        hardLimit: form.get("hardLimit") === "on",
      },
      selection: which === "all" ? { kind: "all" } : { kind: "sessions", ids: picked },
    };
    startTransition(async () => {
      const result = await createRolloutAction(input);
      if (!result.ok) {
        setError({ message: result.message, fields: result.fieldErrors ?? {} });
        return;
      }
      setError(null);
      router.push(`/rollouts/${result.data.runId}`);
    });
  };
  const fieldError = (name: string) =>
    error?.fields[name] ? (
      <span className="field-error" id={`rollout-${name}-error`}>
        {error.fields[name].join(" ")}
      </span>
    ) : null;

  return (
    <RunFormCard
      heading="New rollout"
      idPrefix="rollout"
      namePlaceholder="self-gc vs pruning"
      onSubmit={onSubmit}
      error={error?.message ?? null}
      pending={pending}
      submitLabel="Start rollout"
      canSubmit={chosen.size > 0}
    >
      <fieldset className="field">
        <legend>Sessions</legend>
        <label>
          <input type="radio" name="which" checked={which === "all"} onChange={() => setWhich("all")} /> All sessions ({totalSessions.toLocaleString("en-US")})
        </label>
        <label>
          <input type="radio" name="which" checked={which === "sessions"} onChange={() => setWhich("sessions")} /> Chosen sessions
        </label>
        {which === "sessions" ? (
          <select
            multiple
            aria-label="Sessions to roll out"
            className="select"
            size={Math.min(10, Math.max(3, sessions.length))}
            value={picked}
            onChange={(e) => setPicked([...e.target.selectedOptions].map((o) => o.value))}
          >
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title} · {s.format}
              </option>
            ))}
          </select>
        ) : null}
        {fieldError("sessions")}
      </fieldset>
      <fieldset className="field" aria-describedby={error?.fields.policies ? "rollout-policies-error" : undefined}>
        <legend>Policies</legend>
        <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(210px, 1fr))", gap: 4 }}>
          {policies.map((p) => (
            <label key={p}>
              <input
                type="checkbox"
                checked={chosen.has(p)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(p);
                  else next.delete(p);
                  setChosen(next);
                }}
              />{" "}
              <span className="mono">{p}</span>
            </label>
          ))}
        </div>
        {fieldError("policies")}
      </fieldset>
      <div className="grid-2">
        <div className="field">
          <label htmlFor="rollout-window">Window (tokens; empty: per session, as the CLI)</label>
          <input id="rollout-window" name="window" className="input" inputMode="numeric" placeholder="per session" aria-invalid={!!error?.fields.window} />
          {fieldError("window")}
        </div>
        <div className="field">
          <label htmlFor="rollout-trigger">Trigger (share of the window)</label>
          <input id="rollout-trigger" name="trigger" className="input" defaultValue="90%" aria-invalid={!!error?.fields.trigger} />
          {fieldError("trigger")}
        </div>
        <div className="field">
          <label htmlFor="rollout-cache-ttl">Cache TTL</label>
          <input id="rollout-cache-ttl" name="cacheTtl" className="input" defaultValue="5m" aria-invalid={!!error?.fields.cacheTtl} />
          {fieldError("cacheTtl")}
        </div>
        <div className="field">
          <label htmlFor="rollout-prices">Prices (empty: each session&apos;s model list price)</label>
          <input
            id="rollout-prices"
            name="prices"
            className="input"
            placeholder="model=claude-sonnet-4 or input=3,output=15"
            aria-invalid={!!error?.fields.prices}
          />
          {fieldError("prices")}
        </div>
        <div className="field">
          <label htmlFor="rollout-planner">Self-GC planner</label>
          <select id="rollout-planner" name="planner" className="select" defaultValue="rule-based" aria-invalid={!!error?.fields.planner}>
            <option value="rule-based">Rule-based (no model calls)</option>
            <option value="llm" disabled={!plannerAvailable}>
              LLM{plannerAvailable ? " (planner rounds priced)" : " (no endpoint configured)"}
            </option>
          </select>
          {plannerAvailable ? null : (
            <span className="faint" data-testid="rollout-planner-unavailable">
              No LLM endpoint serves the planner: an admin sets one on Admin → settings.
            </span>
          )}
          {fieldError("planner")}
        </div>
        <div className="field">
          <label>
            <input type="checkbox" name="hardLimit" aria-invalid={!!error?.fields.hardLimit} /> Hard limit
          </label>
          <span className="faint">
            Where a policy&apos;s own decision leaves the prompt over the window, the harness asks it to compact to its trigger share of the window (as{" "}
            <span className="mono">--hard-limit</span>; the same for every policy).
          </span>
          {fieldError("hardLimit")}
        </div>
      </div>
    </RunFormCard>
  );
}
