"use client";

import { useEffect, useState } from "react";
import type { RunState } from "./use-compaction-run";
import styles from "./compaction.module.css";

/** Progress while the server runs a policy, with the elapsed time (the LLM planner can take a while). */
export function RunProgress({ states }: { states: RunState[] }) {
  const running = states.filter((s): s is Extract<RunState, { status: "running" }> => s.status === "running");
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (running.length === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [running.length]);
  if (running.length === 0) return null;
  const since = Math.min(...running.map((s) => s.startedAt));
  const what = running.map((s) => s.request.policy).join(" and ");
  const cut = running[0]!.request.cut;
  return (
    <div className={styles.progress} role="status" aria-live="polite" data-testid="run-progress">
      <span className={styles.spinner} aria-hidden="true" />
      <span>
        Running <strong className="mono">{what}</strong>
        {cut !== undefined ? ` at cut ${cut.toLocaleString("en-US")}` : ""} on the server… {(Math.max(0, now - since) / 1000).toFixed(1)} s
      </span>
      <span className={styles.bar} aria-hidden="true" />
    </div>
  );
}

/** A failed run: what failed, the server's code and message, and a retry. */
export function RunError({ state, onRetry }: { state: RunState; onRetry(): void }) {
  if (state.status !== "error") return null;
  return (
    <div className="alert alert-error" role="alert" data-testid="run-error">
      <div className={styles.errorBox}>
        <span>
          <strong className="mono">{state.request.policy}</strong> could not run: {state.message} <span className={styles.errorCode}>{state.code}</span>
          {state.previous ? <span> — showing the previous result.</span> : null}
        </span>
        <button type="button" className="btn btn-sm" onClick={onRetry} style={{ marginLeft: "auto" }}>
          Retry
        </button>
      </div>
    </div>
  );
}
