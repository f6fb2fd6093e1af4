"use client";

import { plural } from "@/lib/util/plural";
import { formatNumber, formatRate } from "./review-types";
import type { QueueStatus } from "./use-labeling";

/** The queue's verdict count, progress, the reviewer's own count and the headline agreement, live. */
export function StatusBar({ status, me, notice, busy }: { status: QueueStatus; me: string; notice: { tone: string; text: string } | null; busy: boolean }) {
  const { summary, agreement } = status;
  const a = agreement.reviewers;
  return (
    <div className="card card-body review-status" aria-live="polite">
      <span>
        Verdicts: <strong data-testid="verdict-count">{summary.labels}</strong>
      </span>
      <span>
        Done: <strong data-testid="done-count">{summary.done}</strong> / {summary.items} (overlap {summary.overlap})
      </span>
      <span>
        Yours: <strong data-testid="my-count">{summary.byReviewer[me] ?? 0}</strong>
      </span>
      <span data-testid="agreement-summary">
        Agreement: {a.method === "none" ? "–" : `${formatRate(a.percent.rate)} on ${plural(a.units, "item")}, κ ${formatNumber(a.kappa?.kappa ?? Number.NaN)}`}
      </span>
      {busy ? <span className="muted">Working…</span> : null}
      {notice ? (
        <span role={notice.tone === "error" ? "alert" : "status"} className={notice.tone === "error" ? "field-error" : "muted"} data-testid="review-notice">
          {notice.text}
        </span>
      ) : null}
    </div>
  );
}
