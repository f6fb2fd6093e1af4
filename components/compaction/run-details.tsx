"use client";

import type { CompactRun } from "@/server/policies/compaction-api";
import { DetailsView } from "./details-view";
import styles from "./compaction.module.css";

/** The decision log and the policy's structured details (planner XML, rehearsal, commit…). */
export function RunDetails({ run, onTarget }: { run: CompactRun; onTarget(target: string): void }) {
  return (
    <section className={`card ${styles.panel}`} aria-label="Decisions" data-testid="run-details">
      <div className={styles.panelHead}>
        <h2>Why</h2>
        <span className={styles.runMeta}>decision log and details of {run.policy}</span>
      </div>
      <div className={styles.panelBody}>
        <div className={styles.section} data-testid="decision-log">
          <h3>Decision log</h3>
          {run.log.length > 0 ? (
            <ol className={styles.log}>
              {run.log.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ol>
          ) : (
            <span className={styles.none}>empty</span>
          )}
        </div>
        {run.summary !== undefined ? (
          <div className={styles.section} data-testid="summary-text">
            <h3>Summary the policy inserted{run.tailStart !== undefined ? ` (tail kept from message #${run.tailStart})` : ""}</h3>
            <pre className={styles.longText}>{run.summary}</pre>
          </div>
        ) : null}
        {run.details ? <DetailsView details={run.details} onTarget={onTarget} /> : null}
      </div>
    </section>
  );
}
