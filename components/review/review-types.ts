/**
 * Client-side shapes of the review studio (types only, re-exported from server/ so the browser
 * bundle carries no server code), plus small helpers shared by the review components.
 */
export type { ItemView, MessageText, CandidateView, RemovedPart } from "@/server/review/item-view-types";
export type { QueueSummary } from "@/server/review/queue-progress";
export type { QueueAgreement } from "@/server/review/queue-agreement";
export type { ProjectedMessage } from "@/server/compaction/compaction-api";
export type { ReviewLabel, DependencyType } from "@/lib/review";

/** A new label thread id, generated in the browser so a retried save is recognised by the server. */
export function newLabelId(): string {
  return crypto.randomUUID();
}

/**
 * Runs a server action, retrying when the request itself fails (network drop, server restart) with
 * the same arguments — safe because saves are idempotent by labelId + version. Answers from the
 * server (ok or not) are returned as they are, never retried.
 */
export async function withRetry<T>(call: () => Promise<T>, attempts = 6, onRetry?: (attempt: number) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts) throw error;
      onRetry?.(attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.min(4_000, 250 * 2 ** attempt)));
    }
  }
}

export function formatRate(rate: number): string {
  return Number.isFinite(rate) ? `${(rate * 100).toFixed(1)}%` : "–";
}

export function formatNumber(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "–";
}
