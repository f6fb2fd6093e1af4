"use client";

import type { CompactRun } from "@/server/compaction/compaction-api";
import { DetailsView } from "./details-view";
import panelStyles from "@/components/ui/panel.module.css";
import decisionStyles from "./decisions.module.css";
import labelStyles from "./run-labels.module.css";

/** The decision log and the policy's structured details (planner XML, rehearsal, commit…). */
export function RunDetails({ run, onTarget }: { run: CompactRun; onTarget(target: string): void }) {
  return (
    <section className={`card ${panelStyles.panel}`} aria-label="Decisions" data-testid="run-details">
      <div className={panelStyles.panelHead}>
        <h2>Why</h2>
        <span className={labelStyles.runMeta}>decision log and details of {run.policy}</span>
      </div>
      <div className={panelStyles.panelBody}>
        <div className={panelStyles.section} data-testid="decision-log">
          <h3>Decision log</h3>
          {run.log.length > 0 ? (
            <ol className={decisionStyles.log}>
              {run.log.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ol>
          ) : (
            <span className={panelStyles.none}>empty</span>
          )}
        </div>
        {run.summary !== undefined ? (
          <div className={panelStyles.section} data-testid="summary-text">
            <h3>Summary the policy inserted{run.tailStart !== undefined ? ` (tail kept from message #${run.tailStart})` : ""}</h3>
            <pre className={decisionStyles.longText}>{run.summary}</pre>
          </div>
        ) : null}
        {run.details ? <DetailsView details={run.details} onTarget={onTarget} /> : null}
      </div>
    </section>
  );
}
