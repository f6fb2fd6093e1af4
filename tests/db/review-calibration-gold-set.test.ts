import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { manualClock } from "../../lib/review";
import { importGoldQueue } from "../../server/review/import-gold";
import { getQueueAgreement } from "../../server/review/queue-agreement";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const ROOT = resolve(__dirname, "../..");
const GOLD = readFileSync(join(ROOT, "gold/judge-gold.jsonl"), "utf8");
/** What `npm run calibrate` wrote from the trace files (a unit test keeps it current with the judge). */
const REPORT = JSON.parse(readFileSync(join(ROOT, "gold/judge-calibration.json"), "utf8")) as Record<string, unknown>;

/**
 * The whole gold set imported into the studio measures the judge exactly as `tracefold eval
 * --calibrate` does from the trace files: the stored sessions (Claude Code, tau-bench, mini-SWE-agent
 * traces; several sessions per file) rebuild every view and sidecar, and the figures are the
 * checked-in report's.
 */
for (const engine of ENGINES) {
  describe(`the gold set as a calibration queue on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
    });
    after(async () => t.close());

    test("every unit is found and judged, and the figures are gold/judge-calibration.json's", async () => {
      const paths = [
        ...new Set(
          GOLD.split("\n")
            .filter(Boolean)
            .map((l) => (JSON.parse(l) as { unit: { trace: { path: string } } }).unit.trace.path),
        ),
      ];
      for (const path of paths) assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, path) })).status, "imported", path);
      const imported = await importGoldQueue(t.db, GOLD);
      assert.ok(imported.ok, JSON.stringify(!imported.ok && imported.errors.slice(0, 3)));
      assert.equal(imported.items, GOLD.split("\n").filter(Boolean).length);
      const figures = (await getQueueAgreement(t.db, imported.queueId, manualClock(0)))!.judgeCalibration!;
      assert.deepEqual(figures.stale, []);
      const { units, labels, matrix, accuracy, kappa, binary, disagreements } = figures;
      assert.deepEqual(
        { units, labels, matrix, accuracy, kappa, binary, disagreements },
        {
          units: REPORT.units,
          labels: REPORT.labels,
          matrix: REPORT.matrix,
          accuracy: REPORT.accuracy,
          kappa: REPORT.kappa,
          binary: REPORT.binary,
          disagreements: REPORT.disagreements,
        },
      );
    });
  });
}
