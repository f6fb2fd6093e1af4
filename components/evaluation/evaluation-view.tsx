"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { CutsPanel } from "./cuts-panel";
import { budgetLabel, type RunCut, type RunView } from "./eval-types";
import { EvidencePanel } from "./evidence-panel";
import { FrequencyChart } from "./frequency-chart";
import { JudgeCalibrationLine } from "./judge-calibration-line";
import { plural } from "@/lib/util/plural";
import { JudgeSensitivity } from "./judge-sensitivity";
import { MatchedComparison } from "./matched-comparison";
import { PolicyComparison } from "./policy-comparison";
import { ResultsBreakdown } from "./results-breakdown";
import { VerdictLegend } from "./results-table";
import { RunControls } from "./run-controls";
import { RunModelsLine } from "./run-models-line";
import { RunUsageTable } from "./run-usage-table";
import { TradeoffChart } from "./tradeoff-chart";
import { useRunView } from "./use-run-view";

/**
 * One evaluation run: progress (polled while it runs) with cancel / resume, the trade-off chart
 * (with the judge's calibration beside it), the results table (with a breakdown by workload or
 * format), the matched comparison, the judge sensitivity, a paired comparison, the
 * compaction-frequency histogram, and the drill-down from a policy (at a budget) to its cuts and
 * from a cut to the judge's evidence and the replay page. The drill-down lives in the URL
 * (`?policy=&budget=&unit=`, pushed to history), so a cut's evidence has a link and Back goes back.
 * Hovering a policy in the chart, its legend or a table highlights it in all of them.
 */
export function EvaluationView({ initial, canControl }: { initial: RunView; canControl: boolean }) {
  const { view, error, reload } = useRunView(initial);
  const { run, aggregates, frequency, calibration, deletedSessions } = view;
  const params = useSearchParams();
  const policy = params.get("policy");
  const budget = params.get("budget");
  const unit = params.get("unit");
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [frequencyPolicy, setFrequencyPolicy] = useState(aggregates.policies.at(-1)?.id ?? "");
  const cutsRef = useRef<HTMLElement>(null);
  const scrollToCuts = useRef(false);
  const ids = aggregates.policies.map((p) => p.id);
  const version = run.done;
  const hrefWith = (next: { policy: string | null; budget: string | null; unit: string | null }) => {
    const query = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(next)) {
      if (value === null) query.delete(key);
      else query.set(key, value);
    }
    const text = query.toString();
    return text ? `?${text}` : "?";
  };
  const select = (id: string, at: string | null = null) => {
    scrollToCuts.current = true;
    window.history.pushState(null, "", hrefWith({ policy: id, budget: at, unit: null }));
  };
  const evidenceHref = (cut: RunCut) => hrefWith({ policy, budget, unit: cut.unitKey });
  useEffect(() => {
    if (!scrollToCuts.current || !policy) return;
    scrollToCuts.current = false;
    cutsRef.current?.scrollIntoView({ block: "start" });
  }, [policy, budget]);
  const judged = aggregates.policies.some((p) => p.n > 0) || aggregates.curves.length > 0;
  const settings = run.settings;
  return (
    <div className="stack">
      <RunControls run={run} canControl={canControl} onChanged={reload} />
      <RunModelsLine run={run} />
      <RunUsageTable usage={run.llmUsage} />
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      {!judged ? (
        <div className="card empty">
          <p>{run.status === "queued" || run.status === "running" ? "Waiting for the first judged cuts…" : "This run has no judged cuts."}</p>
        </div>
      ) : (
        <>
          <section className="card card-body" aria-labelledby="tradeoff-heading">
            <h2 id="tradeoff-heading">Pruning vs no-impact</h2>
            <p className="faint">
              {aggregates.sessions} sessions · {aggregates.cuts} cuts judged
              {settings ? ` · trigger level ${Math.round(settings.triggerLevel * 100)}% · ${settings.judge} judge · ${settings.pointers} pointers` : ""}
            </p>
            <JudgeCalibrationLine calibration={calibration} />
            {deletedSessions > 0 ? (
              <p className="alert alert-warn" role="note" data-testid="deleted-sessions">
                {plural(deletedSessions, "session")} of this run {deletedSessions === 1 ? "was" : "were"} deleted since it ran:{" "}
                {deletedSessions === 1 ? "its" : "their"} stored results are kept and counted here, but {deletedSessions === 1 ? "its" : "their"} cuts no longer
                open.
              </p>
            ) : null}
            <TradeoffChart
              policies={aggregates.policies}
              curves={aggregates.curves}
              order={ids}
              highlighted={highlighted}
              onHover={setHighlighted}
              onSelect={select}
            />
          </section>
          <section aria-labelledby="results-heading" className="stack">
            <h2 id="results-heading">Results (each policy at its own settings)</h2>
            <VerdictLegend />
            <ResultsBreakdown
              runId={run.id}
              policies={aggregates.policies}
              version={version}
              onSelect={(id) => select(id)}
              highlighted={highlighted}
              onHover={setHighlighted}
            />
          </section>
          {policy ? (
            <section ref={cutsRef} className="card card-body stack" aria-labelledby="cuts-heading" style={{ scrollMarginTop: 56 }}>
              <h2 id="cuts-heading">
                Cuts of <span className="mono">{policy}</span> <span className="faint">({budgetLabel(budget)})</span>
              </h2>
              <CutsPanel
                runId={run.id}
                policy={policy}
                budget={budget}
                budgets={aggregates.budgets}
                version={version}
                selected={unit}
                onBudget={(b) => window.history.pushState(null, "", hrefWith({ policy, budget: b, unit: null }))}
                evidenceHref={evidenceHref}
                onEvidence={(cut) => window.history.pushState(null, "", evidenceHref(cut))}
              />
              {unit ? <EvidencePanel key={unit} runId={run.id} unitKey={unit} /> : null}
            </section>
          ) : null}
          {aggregates.matched ? (
            <section className="card card-body stack" aria-labelledby="matched-heading">
              <h2 id="matched-heading">
                Matched budgets: every policy at the view size of <span className="mono">{aggregates.matched.reference}</span>
              </h2>
              <MatchedComparison matched={aggregates.matched} onSelect={select} highlighted={highlighted} onHover={setHighlighted} />
            </section>
          ) : null}
          {aggregates.sensitivity.length > 0 ? (
            <section className="card card-body stack" aria-labelledby="sensitivity-heading">
              <h2 id="sensitivity-heading">Judge sensitivity</h2>
              <JudgeSensitivity reports={aggregates.sensitivity} />
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
