"use client";

import { useMemo, useRef, useState } from "react";
import type { SimSuiteReport } from "@/lib/online/simulation/simulate-suite";
import { plural } from "@/lib/util/plural";
import type { SimChoices } from "@/server/online/sim-choices";
import { SimulationChart, type SimPoint } from "./simulation-chart";
import { streamSimulation } from "./stream-simulation";

type Phase =
  { kind: "idle" } | { kind: "running"; done: number; total: number } | { kind: "failed"; message: string } | { kind: "done"; report: SimSuiteReport };

const fmt = (x: number) => Math.round(x).toLocaleString("en-US");

/**
 * *Simulate from traces*: pick stored sessions and a policy, replay them on the server (progress
 * streams back per session) and see the per-call series without and with the policy, pooled by
 * call position or for one session, with the summary figures `tracefold simulate` prints.
 */
export function SimulatePanel({ choices }: { choices: SimChoices }) {
  const [scope, setScope] = useState<"all" | "format" | "sessions">("all");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [shown, setShown] = useState<string>("pooled");
  const abort = useRef<AbortController | null>(null);

  async function run(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const picked = form.getAll("sessions").map(String);
    const selection =
      scope === "all" ? { kind: "all" } : scope === "format" ? { kind: "format", format: String(form.get("format")) } : { kind: "sessions", ids: picked };
    if (scope === "sessions" && picked.length === 0) return setPhase({ kind: "failed", message: "Pick at least one session." });
    const trigger = Number(form.get("trigger")) / 100;
    const windowText = String(form.get("window") ?? "").trim();
    abort.current = new AbortController();
    setShown("pooled");
    setPhase({ kind: "running", done: 0, total: 0 });
    const outcome = await streamSimulation(
      { selection, policy: String(form.get("policy")), trigger, ...(windowText ? { window: Number(windowText) } : {}) },
      (p) => setPhase({ kind: "running", done: p.done, total: p.total }),
      abort.current.signal,
    );
    abort.current = null;
    setPhase(outcome.ok ? { kind: "done", report: outcome.report } : { kind: "failed", message: outcome.message });
  }

  if (choices.totalSessions === 0) {
    return (
      <section className="card card-body stack" aria-label="Simulate from traces">
        <h2>Simulate from traces</h2>
        <p className="faint" data-testid="sim-empty">
          No traces uploaded yet: upload agent traces on the Traces page, then replay them here under a policy to see the expected online curve before any
          rollout.
        </p>
      </section>
    );
  }
  const running = phase.kind === "running";
  return (
    <section className="card card-body stack" aria-label="Simulate from traces">
      <h2>Simulate from traces</h2>
      <p className="faint">
        Replays each stored session in time order; whenever the policy&apos;s trigger fires it commits the compaction and continues from the compacted context.
        Each call&apos;s prompt is counted without and with the policy, cache terms included (a commit re-writes the prompt; a gap over 5 minutes empties the
        cache). Without a window, each session gets one sized so the trigger first fires at two thirds of its largest prompt. Same numbers as{" "}
        <code className="mono">tracefold simulate</code>.
      </p>
      <form className="stack" onSubmit={(e) => void run(e)} aria-label="Simulation settings">
        <fieldset className="row" style={{ gap: 16, border: "none", padding: 0, flexWrap: "wrap" }}>
          <legend className="faint">Sessions</legend>
          <label className="row" style={{ gap: 4 }}>
            <input type="radio" name="scope" checked={scope === "all"} onChange={() => setScope("all")} /> All ({choices.totalSessions})
          </label>
          <label className="row" style={{ gap: 4 }}>
            <input type="radio" name="scope" checked={scope === "format"} onChange={() => setScope("format")} /> One format
          </label>
          <label className="row" style={{ gap: 4 }}>
            <input type="radio" name="scope" checked={scope === "sessions"} onChange={() => setScope("sessions")} /> Selected sessions
          </label>
        </fieldset>
        {scope === "format" ? (
          <label className="field">
            Trace format
            <select className="select" name="format">
              {choices.formats.map((f) => (
                <option key={f.format} value={f.format}>
                  {f.format} ({f.sessions})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {scope === "sessions" ? (
          <label className="field">
            Sessions (Ctrl/⌘-click for several{choices.totalSessions > choices.sessions.length ? `; the ${choices.sessions.length} newest are listed` : ""})
            <select className="select" name="sessions" multiple size={8} style={{ minWidth: 420 }}>
              {choices.sessions.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title || s.id} · {s.format} · {plural(s.messages, "message")}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div className="row" style={{ gap: 12, flexWrap: "wrap", alignItems: "end" }}>
          <label className="field">
            Policy
            <select className="select" name="policy" defaultValue="tool-prune">
              {choices.policies.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.id} ({p.family})
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            Trigger (% of the window)
            <input className="input" name="trigger" type="number" min={1} max={100} step="any" defaultValue={90} style={{ width: 90 }} required />
          </label>
          <label className="field">
            Window (tokens; blank: per session)
            <input className="input" name="window" type="number" min={1} step={1} placeholder="per session" style={{ width: 140 }} />
          </label>
          <button type="submit" className="btn btn-primary" disabled={running}>
            {running ? "Simulating…" : "Run simulation"}
          </button>
          {running ? (
            <button type="button" className="btn" onClick={() => abort.current?.abort()}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      {running ? (
        <div className="row" style={{ gap: 8, alignItems: "center" }}>
          <progress className="progress" max={Math.max(1, phase.total)} value={phase.done} aria-label="Simulation progress" data-testid="sim-progress" />
          <span className="faint">{phase.total > 0 ? `${phase.done} of ${plural(phase.total, "session")}` : "Loading sessions…"}</span>
        </div>
      ) : null}
      {phase.kind === "failed" ? (
        <p className="alert alert-error" role="alert">
          {phase.message}
        </p>
      ) : null}
      {phase.kind === "done" ? <SimulationResult report={phase.report} shown={shown} onShow={setShown} /> : null}
    </section>
  );
}

function SimulationResult({ report, shown, onShow }: { report: SimSuiteReport; shown: string; onShow: (id: string) => void }) {
  const p = report.pooled;
  const session = shown === "pooled" ? undefined : report.sessions.find((s, i) => `${i}` === shown);
  const data: SimPoint[] = useMemo(
    () =>
      session
        ? session.series.map(([without, withPolicy, commit], i) => ({
            call: i + 1,
            without,
            with: withPolicy,
            ...(commit ? { note: "compaction committed" } : {}),
          }))
        : report.curve.map((c) => ({ call: c.call, without: c.without, with: c.with, note: plural(c.sessions, "session") })),
    [report, session],
  );
  return (
    <div className="stack" data-testid="sim-result">
      <dl className="row" style={{ gap: 24, flexWrap: "wrap" }} aria-label="Simulation summary">
        <div>
          <dt className="faint">Sessions</dt>
          <dd data-testid="sim-sessions">{p.sessions}</dd>
        </div>
        <div>
          <dt className="faint">Calls</dt>
          <dd data-testid="sim-calls">{p.calls.toLocaleString("en-US")}</dd>
        </div>
        <div>
          <dt className="faint">Mean input without</dt>
          <dd>{fmt(p.meanInputTokens.without)}</dd>
        </div>
        <div>
          <dt className="faint">Mean input with</dt>
          <dd>{fmt(p.meanInputTokens.with)}</dd>
        </div>
        <div>
          <dt className="faint">Reduction</dt>
          <dd data-testid="sim-reduction">{p.reductionPct === null ? "—" : `${p.reductionPct.toFixed(2)}%`}</dd>
        </div>
        <div>
          <dt className="faint">Compactions</dt>
          <dd>{p.compactions}</dd>
        </div>
        <div>
          <dt className="faint">Cache breaks</dt>
          <dd data-testid="sim-cache-breaks">
            {p.cacheBreaks} ({plural(p.cacheBreakTokens, "token")})
          </dd>
        </div>
        <div>
          <dt className="faint" title="Calls whose step needed a value the compacted context had lost (the rollout's dependency judge)">
            Lost steps per 100 calls
          </dt>
          <dd data-testid="sim-lost-steps">
            {p.lostStepsPer100 === null ? "—" : p.lostStepsPer100.toFixed(2)} ({plural(p.lostSteps, "step")}; {plural(p.restores, "restore")})
          </dd>
        </div>
        {p.cost ? (
          <div>
            <dt className="faint">Billed prompt cost without → with</dt>
            <dd>
              ${p.cost.without.toFixed(4)} → ${p.cost.with.toFixed(4)}
            </dd>
          </div>
        ) : null}
      </dl>
      <label className="field">
        Curve
        <select className="select" value={shown} onChange={(e) => onShow(e.target.value)} aria-label="Curve shown">
          <option value="pooled">All sessions: mean prompt at the k-th call</option>
          {report.sessions.map((s, i) => (
            <option key={`${s.session}:${i}`} value={`${i}`}>
              {s.session} ({plural(s.calls, "call")})
            </option>
          ))}
        </select>
      </label>
      <SimulationChart
        data={data}
        title={
          session
            ? `Prompt tokens per call, session ${session.session} (window ${session.window.toLocaleString("en-US")})`
            : `Mean prompt tokens at each call position under ${report.policy}`
        }
      />
      <table className="dt" aria-label="Simulated sessions">
        <thead>
          <tr>
            <th>Session</th>
            <th>Format</th>
            <th className="num">Calls</th>
            <th className="num">Window</th>
            <th className="num">Mean without</th>
            <th className="num">Mean with</th>
            <th className="num">Reduction</th>
            <th className="num">Commits</th>
            <th className="num">Cache breaks</th>
            <th className="num">Lost steps</th>
          </tr>
        </thead>
        <tbody>
          {report.sessions.map((s, i) => (
            <tr key={`${s.session}:${i}`}>
              <td className="mono">{s.session}</td>
              <td>{s.format}</td>
              <td className="num">{s.calls}</td>
              <td className="num">{s.window.toLocaleString("en-US")}</td>
              <td className="num">{fmt(s.meanInputTokens.without)}</td>
              <td className="num">{fmt(s.meanInputTokens.with)}</td>
              <td className="num">{s.reductionPct === null ? "—" : `${s.reductionPct.toFixed(2)}%`}</td>
              <td className="num">{s.compactions}</td>
              <td className="num">{s.cacheBreaks}</td>
              <td className="num">{s.lostSteps}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
