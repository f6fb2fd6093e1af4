"use client";

import { useEffect, useState } from "react";
import type { RunState } from "./use-compaction-run";
import styles from "./run-status.module.css";

/**
 * Progress while the server runs a policy, with the elapsed time (the LLM planner can take a
 * while). A run that calls the LLM is a job a worker executes: then it says the page is waiting for
 * the planner (queued, or running and on which attempt) and offers Cancel, which stops waiting.
 */
export function RunProgress({ states, onCancel }: { states: RunState[]; onCancel?: () => void }) {
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
  const elapsed = `${(Math.max(0, now - since) / 1000).toFixed(1)} s`;
  const job = running.find((s) => s.job)?.job;
  return (
    <div className={styles.progress} role="status" aria-live="polite" data-testid="run-progress">
      <span className={styles.spinner} aria-hidden="true" />
      {job ? (
        <span data-testid="run-waiting">
          Waiting for the planner… <strong className="mono">{what}</strong>
          {cut !== undefined ? ` at cut ${cut.toLocaleString("en-US")}` : ""} runs in a worker (
          {job.status === "queued" ? "queued" : `running, attempt ${job.attempts}`}) · {elapsed}
        </span>
      ) : (
        <span>
          Running <strong className="mono">{what}</strong>
          {cut !== undefined ? ` at cut ${cut.toLocaleString("en-US")}` : ""} on the server… {elapsed}
        </span>
      )}
      <span className={styles.bar} aria-hidden="true" />
      {job && onCancel ? (
        <button type="button" className="btn btn-sm" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
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
