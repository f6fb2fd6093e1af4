import type { LatencySummary } from "./latency";
import type { ReviewScenarioResult } from "./review-scenario";
import type { UploadScenarioResult } from "./upload-scenario";

/** The targets: p95 save under 150 ms, no errors, every acknowledged label stored once, every upload imported once. */
export const P95_SAVE_TARGET_MS = 150;

export interface LoadReport {
  setup: { reviewers: number; items: number; sessions: number; buildSeconds: number; loadAverage: { before: number[]; after: number[] } };
  review: ReviewScenarioResult;
  uploads: UploadScenarioResult;
  failures: string[];
}

/** Every target missed, in words (empty when the run passes). */
export function missedTargets(review: ReviewScenarioResult, uploads: UploadScenarioResult): string[] {
  const failures: string[] = [];
  if (review.saves.n === 0) failures.push("no label was saved");
  if (review.saves.p95 >= P95_SAVE_TARGET_MS) failures.push(`save p95 ${review.saves.p95} ms is not under ${P95_SAVE_TARGET_MS} ms`);
  if (review.errors > 0) failures.push(`${review.errors} reviewer request errors (${review.errorSamples.join("; ")})`);
  const v = review.verify;
  if (v.missing + v.duplicated + v.wrongReviewer > 0) failures.push(`acknowledged labels: ${v.missing} missing, ${v.duplicated} duplicated, ${v.wrongReviewer} under another reviewer`);
  if (v.unacknowledgedRows > 0) failures.push(`${v.unacknowledgedRows} stored labels were never acknowledged`);
  if (uploads.errors > 0) failures.push(`${uploads.errors} upload errors (${uploads.errorSamples.join("; ")})`);
  if (uploads.verify.importedOnce !== uploads.uploads) failures.push(`uploads imported exactly once: ${uploads.verify.importedOnce} of ${uploads.uploads} (${uploads.verify.missing} missing, ${uploads.verify.duplicated} duplicated, ${uploads.verify.wrongSessionCount} with wrong session counts)`);
  return failures;
}

/** A human table of the figures, for the terminal and the README. */
export function formatTable(report: LoadReport): string {
  const { review: r, uploads: u, setup: s } = report;
  const lat = (l: LatencySummary) => `p50 ${l.p50} / p95 ${l.p95} / p99 ${l.p99} / max ${l.max} ms (n=${l.n})`;
  const rows: [string, string][] = [
    ["setup", `${s.reviewers} reviewers, dependency queue of ${s.items} items over ${s.sessions} sessions, overlap 20; build ${s.buildSeconds} s`],
    ["load average (1 min) before → after", `${s.loadAverage.before[0]} → ${s.loadAverage.after[0]}`],
    [`A: label saves (${r.seconds} s, think ${r.thinkMs} ms ±50%)`, `${lat(r.saves)}; ${r.savesPerSecond} saves/s`],
    ["A: open item / queue status", `${lat(r.opens)} / ${lat(r.statusRefreshes)}`],
    ["A: agreement (own request, after saves)", lat(r.agreementRefreshes)],
    ["A: errors; acknowledged → stored", `${r.errors}; ${r.acknowledged} acknowledged, ${r.verify.stored} stored, ${r.verify.missing} missing, ${r.verify.duplicated} duplicated, ${r.verify.unacknowledgedRows} unacknowledged`],
    [`B: ${u.uploads} concurrent uploads of ${u.megabytesEach} MB`, `all done in ${u.wallSeconds} s; per upload ${lat(u.perUploadMs)}`],
    ["B: errors; imported exactly once", `${u.errors}; ${u.verify.importedOnce} of ${u.uploads}`],
    ["result", report.failures.length === 0 ? "PASS" : `FAIL: ${report.failures.join("; ")}`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n");
}
