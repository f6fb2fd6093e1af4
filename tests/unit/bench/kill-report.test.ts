import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fullXid } from "../../../scripts/bench/load/kill-checks";
import type { KillScenarioResult } from "../../../scripts/bench/load/kill-scenario";
import { formatTable, missedKillTargets, type LoadReport } from "../../../scripts/bench/load/report";

/** A clean run: killed with 2 answered and 3 imports writing (all cut), one committed unanswered, all re-uploaded once. */
function clean(): KillScenarioResult {
  return {
    uploads: 6,
    megabytesEach: 10,
    killedAfterSeconds: 7.2,
    killedMidImport: true,
    openTransactionsAtKill: 3,
    oldestOpenMsAtKill: 420,
    transactionsAborted: 3,
    transactionsCommitted: 0,
    acknowledged: 2,
    unanswered: 4,
    transactionsGoneSeconds: 0.1,
    restartSeconds: 3.4,
    afterRestart: {
      acknowledgedIntact: 2,
      acknowledgedLost: 0,
      committedUnanswered: 1,
      partialUnanswered: 0,
      halfImported: { uploads: 0, sessions: 0, redactions: 0 },
      tempFilesLeft: 8,
      unreferencedBlobs: 3,
    },
    retry: { files: 4, imported: 3, duplicate: 1, errors: 0, errorSamples: [], seconds: 5 },
    final: { exactlyOnce: 6, missing: 0, duplicated: 0, incomplete: 0, halfImported: 0, unreferencedBlobs: 0 },
  };
}

describe("bench:load scenario C's targets", () => {
  test("a clean kill misses nothing: temp files and blobs left by the killed requests are figures, not failures", () => {
    assert.deepEqual(missedKillTargets(clean()), []);
  });

  test("a kill that cut no import proves nothing and fails", () => {
    const k = { ...clean(), killedMidImport: false, transactionsAborted: 0, transactionsCommitted: 3 };
    assert.match(
      missedKillTargets(k).join("\n"),
      /cut no import after an upload was answered \(2 answered; 3 import transactions open at the kill, 0 aborted, 3 committed\)/,
    );
  });

  test("a lost acknowledged upload, a half-imported session, a failed re-upload and a duplicate each fail on their own", () => {
    const lost = clean();
    lost.afterRestart = { ...lost.afterRestart, acknowledgedIntact: 1, acknowledgedLost: 1 };
    assert.match(missedKillTargets(lost).join("\n"), /1 of 2 acknowledged uploads lost/);
    const half = clean();
    half.afterRestart = { ...half.afterRestart, halfImported: { uploads: 0, sessions: 1, redactions: 0 } };
    assert.match(missedKillTargets(half).join("\n"), /half-imported rows after the restart: 0 uploads, 1 sessions/);
    const retry = clean();
    retry.retry = { ...retry.retry, imported: 2, errors: 1, errorSamples: ["load-kill-03.jsonl: HTTP 500 the import failed"] };
    assert.match(missedKillTargets(retry).join("\n"), /1 re-uploads not answered as expected \(load-kill-03/);
    const twice = clean();
    twice.final = { ...twice.final, exactlyOnce: 5, duplicated: 1 };
    assert.match(missedKillTargets(twice).join("\n"), /exactly once and complete: 5 of 6 \(0 missing, 1 duplicated/);
    const gone = { ...clean(), transactionsGoneSeconds: null };
    assert.match(missedKillTargets(gone).join("\n"), /still open in PostgreSQL/);
  });

  test("the table shows scenario C, or says it was skipped", () => {
    const zero = { n: 0, p50: 0, p95: 0, p99: 0, max: 0 };
    const report: LoadReport = {
      setup: { reviewers: 1, items: 2, sessions: 3, buildSeconds: 0, loadAverage: { before: [1], after: [1] } },
      review: {
        reviewers: 1,
        seconds: 1,
        thinkMs: 1,
        saves: zero,
        savesPerSecond: 0,
        opens: zero,
        statusRefreshes: zero,
        agreementRefreshes: zero,
        activityRefreshes: zero,
        errors: 0,
        errorSamples: [],
        acknowledged: 0,
        verify: { stored: 0, missing: 0, duplicated: 0, wrongReviewer: 0, unacknowledgedRows: 0 },
      },
      uploads: {
        uploads: 1,
        megabytesEach: 10,
        wallSeconds: 1,
        perUploadMs: zero,
        imported: 1,
        errors: 0,
        errorSamples: [],
        verify: { importedOnce: 1, missing: 0, duplicated: 0, wrongSessionCount: 0 },
      },
      kill: clean(),
      failures: [],
    };
    assert.match(
      formatTable(report),
      /C: 6 uploads of 10 MB, SIGKILL +after 7\.2 s with 2 answered 201, 4 unanswered; 3 import transactions writing \(oldest 420 ms\): 3 aborted, 0 committed;/,
    );
    assert.match(formatTable({ ...report, kill: null }), /C: SIGKILL mid-import +skipped \(LOAD_KILL_UPLOADS=0\)/);
  });
});

test("a 32-bit xid from pg_stat_activity becomes the xid8 nearest the snapshot's xmax", () => {
  assert.equal(fullXid("900", "1000"), "900");
  assert.equal(fullXid("1005", "1000"), "1005", "assigned after the snapshot: just above xmax, same epoch");
  assert.equal(fullXid("4294967290", String((1n << 32n) + 5n)), "4294967290", "below a wrap of the low bits");
  assert.equal(fullXid("3", String((1n << 32n) - 2n)), String((1n << 32n) + 3n), "above a wrap of the low bits");
});
