import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { DENSE_CUT_LEVELS } from "../../lib/evaluation/cuts/cut-levels";
import { replayCuts } from "../../lib/evaluation/cuts/cut-protocol";
import { createRun } from "../../server/evaluation/create-run";
import { getRun } from "../../server/evaluation/get-run";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { createQueue } from "../../server/review/create-queue";
import { loadCutContext } from "../../server/review/cut-context";
import { loadAnalyzedSession } from "../../server/trace/session/load-analyzed-session";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** The long real Claude Code session of e2e/human-labels (491 records, 344 messages, one native compaction): 4 default cuts, 10 dense ones. */
const TRACE = "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl";
const SETTINGS = { suite: { kind: "all" }, policies: [{ id: "none" }, { id: "tool-prune" }], judge: "dependency" };

for (const engine of ENGINES) {
  describe(`evaluation runs with cut levels on ${engine}`, () => {
    let t: TestDb;
    let sessionId: string;
    before(async () => {
      t = await createTestDb(engine);
      const outcome = await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, TRACE) });
      assert.ok(outcome.status === "imported", JSON.stringify(outcome));
      sessionId = outcome.sessions[0]!.id;
    });
    after(async () => t.close());

    test("settings without cut levels store the default 50,70,90 (and runs stored before the setting read as it)", async () => {
      const created = await createRun(t.db, { settings: SETTINGS });
      assert.ok(created.ok, JSON.stringify(created));
      assert.equal(created.total, 4 * 2);
      const row = await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } });
      assert.deepEqual(JSON.parse(row.settings).cutLevels, [50, 70, 90]);
      const legacy = JSON.parse(row.settings) as Record<string, unknown>;
      delete legacy.cutLevels;
      await t.db.evalRun.update({ where: { id: created.runId }, data: { settings: JSON.stringify(legacy) } });
      assert.deepEqual((await getRun(t.db, created.runId))!.settings!.cutLevels, [50, 70, 90]);
    });

    test("a dense run counts, judges and reviews one unit per dense cut: ten cuts, ten dependency items, each with its context", async () => {
      const created = await createRun(t.db, { settings: { ...SETTINGS, cutLevels: [...DENSE_CUT_LEVELS] }, name: "dense" });
      assert.ok(created.ok, JSON.stringify(created));
      const loaded = (await loadAnalyzedSession(t.db, sessionId))!;
      const expected = replayCuts(loaded.session, loaded.index, { levels: DENSE_CUT_LEVELS });
      assert.equal(expected.length, 10);
      assert.equal(created.total, 10 * 2, "the total counts dense cuts from the start");
      assert.deepEqual((await getRun(t.db, created.runId))!.settings!.cutLevels, DENSE_CUT_LEVELS);
      assert.equal(await runEvaluation(t.db, created.runId, { workerId: "test", llm: null }), "done");
      const rows = await t.db.evalResult.findMany({ where: { runId: created.runId }, orderBy: [{ cut: "asc" }, { policy: "asc" }] });
      assert.equal(rows.filter((r) => r.error === null).length, 20);
      assert.deepEqual(
        [...new Set(rows.map((r) => r.cut))],
        expected.map((c) => c.cut),
      );
      assert.deepEqual(
        [...new Map(rows.map((r) => [r.cut, r.cutReason])).values()],
        expected.map((c) => c.reason),
      );
      assert.equal((await t.db.evalRun.findUniqueOrThrow({ where: { id: created.runId } })).total, 20);

      const queue = await createQueue(t.db, { runId: created.runId, kind: "dependency" });
      assert.ok(queue.ok, JSON.stringify(queue));
      assert.equal(queue.items, 10, "one dependency item per cut");
      const items = await t.db.reviewItem.findMany({ where: { queueId: queue.queueId }, orderBy: { position: "asc" } });
      for (const item of items) {
        const context = await loadCutContext(t.db, created.runId, item.sessionId, item.cut);
        assert.ok(context, `cut ${item.cut} has a replay context under the run's levels`);
        assert.equal(context.cut, item.cut);
      }
    });

    test("invalid cut levels are refused with errors located at the level", async () => {
      const bad = await createRun(t.db, { settings: { ...SETTINGS, cutLevels: [50, 40, 100] } });
      assert.equal(bad.ok, false);
      assert.deepEqual(
        !bad.ok && bad.fieldErrors,
        { "cutLevels.2": ["each cut level must be at most 99"], "cutLevels.1": ["cut levels must be strictly increasing: 40 follows 50"] },
        "every problem, each at its level",
      );
      const unordered = await createRun(t.db, { settings: { ...SETTINGS, cutLevels: [50, 40] } });
      assert.deepEqual(!unordered.ok && unordered.fieldErrors, { "cutLevels.1": ["cut levels must be strictly increasing: 40 follows 50"] });
      const empty = await createRun(t.db, { settings: { ...SETTINGS, cutLevels: [] } });
      assert.deepEqual(!empty.ok && empty.fieldErrors, { cutLevels: ["give at least one cut level"] });
    });
  });
}
