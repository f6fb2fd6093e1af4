import type { KillScenarioResult } from "./kill-scenario";
import type { LatencySummary } from "./latency";
import type { OtlpScenarioResult } from "./otlp-scenario";
import type { ReviewScenarioResult } from "./review-scenario";
import type { UploadScenarioResult } from "./upload-scenario";

/**
 * The issues' targets: p95 save under 150 ms, no errors, every acknowledged label stored once, every
 * upload imported once; and after a SIGKILL mid-import (scenario C), nothing acknowledged lost, nothing
 * half-imported, every unanswered file imported exactly once when uploaded again.
 */
export const P95_SAVE_TARGET_MS = 150;

export interface LoadReport {
  setup: { reviewers: number; items: number; sessions: number; buildSeconds: number; loadAverage: { before: number[]; after: number[] } };
  /** Scenarios A and B; null when LOAD_SCENARIOS left them out. */
  review: ReviewScenarioResult | null;
  uploads: UploadScenarioResult | null;
  /** Scenario C; null when LOAD_KILL_UPLOADS=0 (or LOAD_SCENARIOS) skipped it. */
  kill: KillScenarioResult | null;
  /** Scenario D (OTLP exporters), then its baseline with every session rebuilt inside its request; absent when skipped. */
  otlp?: OtlpScenarioResult[];
  failures: string[];
}

/** Every target missed, in words (empty when the run passes). */
export function missedTargets(
  review: ReviewScenarioResult | null,
  uploads: UploadScenarioResult | null,
  kill: KillScenarioResult | null,
  otlp: readonly OtlpScenarioResult[] = [],
): string[] {
  const failures: string[] = [];
  for (const o of otlp) failures.push(...missedOtlpTargets(o));
  if (kill) failures.push(...missedKillTargets(kill));
  if (!review || !uploads) return failures;
  if (review.saves.n === 0) failures.push("no label was saved");
  if (review.saves.p95 >= P95_SAVE_TARGET_MS) failures.push(`save p95 ${review.saves.p95} ms is not under ${P95_SAVE_TARGET_MS} ms`);
  if (review.errors > 0) failures.push(`${review.errors} reviewer request errors (${review.errorSamples.join("; ")})`);
  const v = review.verify;
  if (v.missing + v.duplicated + v.wrongReviewer > 0)
    failures.push(`acknowledged labels: ${v.missing} missing, ${v.duplicated} duplicated, ${v.wrongReviewer} under another reviewer`);
  if (v.unacknowledgedRows > 0) failures.push(`${v.unacknowledgedRows} stored labels were never acknowledged`);
  if (uploads.errors > 0) failures.push(`${uploads.errors} upload errors (${uploads.errorSamples.join("; ")})`);
  if (uploads.verify.importedOnce !== uploads.uploads)
    failures.push(
      `uploads imported exactly once: ${uploads.verify.importedOnce} of ${uploads.uploads} (${uploads.verify.missing} missing, ${uploads.verify.duplicated} duplicated, ${uploads.verify.wrongSessionCount} with wrong session counts)`,
    );
  return failures;
}

/** Scenario D's violations: errors, lost or duplicated spans, sessions never complete or not evaluable. */
export function missedOtlpTargets(o: OtlpScenarioResult): string[] {
  const failures: string[] = [];
  const d = `D (${o.label})`;
  if (o.errors > 0) failures.push(`${d}: ${o.errors} export errors (${o.errorSamples.join("; ")})`);
  const v = o.verify;
  if (v.lost + v.duplicated > 0) failures.push(`${d}: ${v.lost} spans lost, ${v.duplicated} duplicated of ${o.sent}`);
  if (o.caughtUpSeconds === null) failures.push(`${d}: the sessions were not all rebuilt within the wait`);
  if (v.complete !== o.exporters || v.sessions !== o.exporters)
    failures.push(`${d}: ${v.complete} of ${o.exporters} sessions complete (${v.sessions} session rows)`);
  if (v.evaluable !== o.exporters) failures.push(`${d}: ${v.evaluable} of ${o.exporters} sessions evaluable (a safe cut)`);
  if (v.dirtyLeft > 0) failures.push(`${d}: ${v.dirtyLeft} sessions still marked for a rebuild`);
  return failures;
}

/** Scenario C's violations: a kill that missed the imports proves nothing, so it fails too. */
export function missedKillTargets(k: KillScenarioResult): string[] {
  const failures: string[] = [];
  if (!k.killedMidImport)
    failures.push(
      `C: the kill cut no import after an upload was answered (${k.acknowledged} answered; ${k.openTransactionsAtKill} import transactions open at the kill, ${k.transactionsAborted} aborted, ${k.transactionsCommitted} committed)`,
    );
  const a = k.afterRestart;
  if (a.acknowledgedLost > 0)
    failures.push(`C: ${a.acknowledgedLost} of ${k.acknowledged} acknowledged uploads lost, duplicated or incomplete after the restart`);
  if (a.partialUnanswered > 0) failures.push(`C: ${a.partialUnanswered} unanswered uploads left incomplete or duplicated rows`);
  const half = a.halfImported.uploads + a.halfImported.sessions + a.halfImported.redactions;
  if (half > 0)
    failures.push(
      `C: half-imported rows after the restart: ${a.halfImported.uploads} uploads, ${a.halfImported.sessions} sessions, ${a.halfImported.redactions} redaction reports`,
    );
  if (k.transactionsGoneSeconds === null) failures.push("C: an import transaction of the killed studio was still open in PostgreSQL 60 s after the kill");
  if (k.retry.errors > 0) failures.push(`C: ${k.retry.errors} re-uploads not answered as expected (${k.retry.errorSamples.join("; ")})`);
  const f = k.final;
  if (f.exactlyOnce !== k.uploads)
    failures.push(
      `C: uploads stored exactly once and complete: ${f.exactlyOnce} of ${k.uploads} (${f.missing} missing, ${f.duplicated} duplicated, ${f.incomplete} incomplete or not as answered)`,
    );
  if (f.halfImported > 0) failures.push(`C: ${f.halfImported} half-imported rows after the re-uploads`);
  if (f.unreferencedBlobs > 0) failures.push(`C: ${f.unreferencedBlobs} stored blobs named by no row after the re-uploads`);
  return failures;
}

/** A human table of the figures, for the terminal and the README. */
export function formatTable(report: LoadReport): string {
  const { review: r, uploads: u, setup: s } = report;
  const rows: [string, string][] = [
    ["setup", `${s.reviewers} reviewers, dependency queue of ${s.items} items over ${s.sessions} sessions, overlap 20; build ${s.buildSeconds} s`],
    ["load average (1 min) before → after", `${s.loadAverage.before[0]} → ${s.loadAverage.after[0]}`],
    ...(r
      ? ([
          [`A: label saves (${r.seconds} s, think ${r.thinkMs} ms ±50%)`, `${lat(r.saves)}; ${r.savesPerSecond} saves/s`],
          ["A: open item / queue status", `${lat(r.opens)} / ${lat(r.statusRefreshes)}`],
          ["A: agreement (own request, after saves)", lat(r.agreementRefreshes)],
          ["A: item labels reloaded (after a dependency save)", lat(r.activityRefreshes)],
          [
            "A: errors; acknowledged → stored",
            `${r.errors}; ${r.acknowledged} acknowledged, ${r.verify.stored} stored, ${r.verify.missing} missing, ${r.verify.duplicated} duplicated, ${r.verify.unacknowledgedRows} unacknowledged`,
          ],
        ] as [string, string][])
      : [["A: reviewers labeling", "skipped (LOAD_SCENARIOS)"] as [string, string]]),
    ...(u
      ? ([
          [`B: ${u.uploads} concurrent uploads of ${u.megabytesEach} MB`, `all done in ${u.wallSeconds} s; per upload ${lat(u.perUploadMs)}`],
          ["B: errors; imported exactly once", `${u.errors}; ${u.verify.importedOnce} of ${u.uploads}`],
        ] as [string, string][])
      : [["B: concurrent uploads", "skipped (LOAD_SCENARIOS)"] as [string, string]]),
    ...(report.kill ? killRows(report.kill) : [["C: SIGKILL mid-import", "skipped (LOAD_KILL_UPLOADS=0)"] as [string, string]]),
    ...(report.otlp?.length ? report.otlp.flatMap(otlpRows) : [["D: OTLP exporters", "skipped (LOAD_SCENARIOS)"] as [string, string]]),
    ["result", report.failures.length === 0 ? "PASS" : `FAIL: ${report.failures.join("; ")}`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n");
}

const lat = (l: LatencySummary) => `p50 ${l.p50} / p95 ${l.p95} / p99 ${l.p99} / max ${l.max} ms (n=${l.n})`;

function otlpRows(o: OtlpScenarioResult): [string, string][] {
  const v = o.verify;
  return [
    [
      `D: ${o.exporters} OTLP exporters × ${o.spansPerSecond} spans/s × ${o.seconds} s, ${o.label}`,
      `${o.accepted} of ${o.sent} spans accepted, ${o.acceptedPerSecond} spans/s over ${o.sendSeconds} s; requests ${lat(o.requests)}`,
    ],
    [
      "D: errors; every session rebuilt and evaluable",
      `${o.errors}; ${o.caughtUpSeconds === null ? "NOT within the wait" : `${o.caughtUpSeconds} s after the last answer`}; ${v.complete} of ${o.exporters} complete, ${v.evaluable} evaluable; spans stored ${v.spansStored} (${v.lost} lost, ${v.duplicated} duplicated)`,
    ],
  ];
}

function killRows(k: KillScenarioResult): [string, string][] {
  const a = k.afterRestart;
  const half = a.halfImported.uploads + a.halfImported.sessions + a.halfImported.redactions;
  return [
    [
      `C: ${k.uploads} uploads of ${k.megabytesEach} MB, SIGKILL`,
      `after ${k.killedAfterSeconds} s with ${k.acknowledged} answered 201, ${k.unanswered} unanswered; ${k.openTransactionsAtKill} import transactions writing (oldest ${k.oldestOpenMsAtKill} ms): ${k.transactionsAborted} aborted, ${k.transactionsCommitted} committed${k.killedMidImport ? "" : " (NOT mid-import)"}; gone from PostgreSQL ${k.transactionsGoneSeconds ?? "never"} s after`,
    ],
    [
      "C: after the restart",
      `restart ${k.restartSeconds} s; acknowledged intact ${a.acknowledgedIntact} of ${k.acknowledged}; committed unanswered ${a.committedUnanswered}; partial ${a.partialUnanswered}; half-imported rows ${half}; temp files left ${a.tempFilesLeft}; unreferenced blobs ${a.unreferencedBlobs}`,
    ],
    [
      "C: re-upload the unanswered; final",
      `${k.retry.files} in ${k.retry.seconds} s: ${k.retry.imported} imported, ${k.retry.duplicate} duplicate, ${k.retry.errors} errors; ${k.final.exactlyOnce} of ${k.uploads} stored exactly once, half-imported ${k.final.halfImported}, unreferenced blobs ${k.final.unreferencedBlobs}`,
    ],
  ];
}
