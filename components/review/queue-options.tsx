import type { QueueSummary } from "./review-types";

/**
 * How a queue was built, in words, for its page header: the A/B pair and its cuts, the sample and
 * the seed it was drawn with (the seed also sets the A/B sides), and blind mode.
 */
export function describeQueueOptions(summary: Pick<QueueSummary, "kind" | "items" | "options">): string[] {
  const { pair, cuts, sample, seed, blind } = summary.options;
  const parts: string[] = [];
  if (summary.kind === "ab") {
    parts.push(pair ? `A/B pair ${pair[0]} vs ${pair[1]}` : "A/B: every pair of the run's policies");
    parts.push(cuts === "all" ? "all cuts judged for both" : "cuts where the judge disagrees");
  }
  if (sample)
    parts.push(
      sample.size < sample.from
        ? `a sample of ${sample.size} of ${sample.from} items (seed ${seed})`
        : `every item: the sample size covers all ${sample.from} (seed ${seed})`,
    );
  else if (summary.kind === "ab") parts.push(`sides drawn with seed ${seed}`);
  if (summary.kind === "failure") parts.push(blind ? "blind: the judge's category and culprit show after your answer" : "the judge's answer is shown");
  if (summary.kind === "calibration")
    parts.push("blind: no policy name and no judge's verdict on the labeling screen; the judge's agreement with the labels is below");
  return parts;
}

export function QueueOptions({ summary }: { summary: Pick<QueueSummary, "kind" | "items" | "options"> }) {
  const parts = describeQueueOptions(summary);
  return parts.length > 0 ? (
    <p className="muted" data-testid="queue-options">
      {parts.join(" · ")}
    </p>
  ) : null;
}
