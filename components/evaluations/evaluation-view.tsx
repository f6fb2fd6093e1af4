"use client";

import { useState } from "react";
import { CutsPanel } from "./cuts-panel";
import { compactHref, type RunCut, type RunView } from "./eval-types";
import { EvidencePanel } from "./evidence-panel";
import { FrequencyChart } from "./frequency-chart";
import { PolicyComparison } from "./policy-comparison";
import { ResultsBreakdown } from "./results-breakdown";
import { RunControls } from "./run-controls";
import { TradeoffChart } from "./tradeoff-chart";
import { useRunView } from "./use-run-view";

/**
 * One evaluation run: progress (polled while it runs) with cancel / resume, the trade-off chart,
 * the results table (with a breakdown by workload or format), a paired comparison, the compaction-frequency histogram, and the drill-down
 * from a policy to its cuts and from a cut to the judge's evidence and the replay page.
 */
export function EvaluationView({ initial, canControl }: { initial: RunView; canControl: boolean }) {
  const { view, error, reload } = useRunView(initial);
  const { run, aggregates, frequency } = view;
  const [policy, setPolicy] = useState<string | null>(null);
  const [cut, setCut] = useState<RunCut | null>(null);
  const [frequencyPolicy, setFrequencyPolicy] = useState(aggregates.policies.at(-1)?.id ?? "");
  const ids = aggregates.policies.map((p) => p.id);
  const version = run.done;
  const select = (id: string) => {
    setPolicy(id);
    setCut(null);
  };
  const judged = aggregates.policies.some((p) => p.n > 0);
  return (
    <div className="stack">
      <RunControls run={run} canControl={canControl} onChanged={reload} />
      {error ? <div className="alert alert-error" role="alert">{error}</div> : null}
      {!judged ? (
        <div className="card empty">
          <p>{run.status === "queued" || run.status === "running" ? "Waiting for the first judged cuts…" : "This run has no judged cuts."}</p>
        </div>
      ) : (
        <>
          <section className="card card-body" aria-labelledby="tradeoff-heading">
            <h2 id="tradeoff-heading">Pruning vs no-impact</h2>
            <p className="faint">{aggregates.sessions} sessions · {aggregates.cuts} cuts judged{run.settings ? ` · trigger level ${Math.round(run.settings.triggerLevel * 100)}% · ${run.settings.judge} judge` : ""}</p>
            <TradeoffChart policies={aggregates.policies} onSelect={select} />
          </section>
          <section aria-labelledby="results-heading" className="stack">
            <h2 id="results-heading">Results</h2>
            <ResultsBreakdown runId={run.id} policies={aggregates.policies} version={version} onSelect={select} />
          </section>
          {policy ? (
            <section className="card card-body stack" aria-labelledby="cuts-heading">
              <h2 id="cuts-heading">Cuts of <span className="mono">{policy}</span></h2>
              <CutsPanel runId={run.id} policy={policy} version={version} selected={cut?.unitKey ?? null} onSelect={setCut} />
              {cut ? <EvidencePanel key={cut.unitKey} runId={run.id} unitKey={cut.unitKey} replayHref={cut.error ? null : compactHref(cut.sessionId, policy, cut.cut, cut.window)} /> : null}
            </section>
          ) : null}
          <div className="grid-2">
            <section className="card card-body" aria-labelledby="compare-heading">
              <h2 id="compare-heading">Paired comparison</h2>
              <PolicyComparison runId={run.id} policies={ids} version={version} />
            </section>
            <section className="card card-body" aria-labelledby="frequency-heading">
              <h2 id="frequency-heading">Compaction frequency</h2>
              <FrequencyChart frequency={frequency} policy={frequencyPolicy} onPolicy={setFrequencyPolicy} />
            </section>
          </div>
        </>
      )}
    </div>
  );
}
