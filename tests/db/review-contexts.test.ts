import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { itemContextKey, manualClock, type QueueItem } from "../../lib/review";
import { createQueue } from "../../server/review/create-queue";
import { loadCutContext } from "../../server/review/cut-context";
import { buildItemContext } from "../../server/review/item-context-build";
import { getItemView } from "../../server/review/item-view";
import { openNextItem } from "../../server/review/next-item";
import { prepareQueueContexts, queueContextProgress } from "../../server/review/prepare-contexts";
import { createJudgedRun } from "../helpers/judged-run";
import { ENGINES, type TestDb } from "../helpers/test-db";

const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
];
const POLICIES = ["none", "tool-prune", "oldest-turn"];

for (const engine of ENGINES) {
  describe(`review item contexts on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    const clock = manualClock(Date.parse("2026-11-23T10:00:00.000Z"));
    before(async () => {
      ({ t, runId } = await createJudgedRun(engine, "contexts source", { traces: TRACES, policies: POLICIES }));
    });
    after(async () => t.close());

    const itemsOf = async (queueId: string) =>
      (await t.db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" } })).map((r) => JSON.parse(r.payload) as QueueItem);

    test("preparing a queue stores one context per item; a second queue on the same run reuses them all, none recomputed", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency" });
      assert.ok(made.ok);
      assert.deepEqual(await queueContextProgress(t.db, made.queueId), { total: made.items, ready: 0 });
      const seen: number[] = [];
      const prepared = await prepareQueueContexts(t.db, made.queueId, (p) => seen.push(p.ready));
      assert.deepEqual(prepared, { total: made.items, ready: made.items });
      assert.deepEqual(
        seen,
        Array.from({ length: made.items + 1 }, (_, i) => i),
        "progress after every cut",
      );
      const rows = await t.db.reviewContext.findMany({ orderBy: { key: "asc" } });
      assert.equal(rows.length, made.items);
      const again = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(again.ok);
      assert.deepEqual(await queueContextProgress(t.db, again.queueId), { total: again.items, ready: again.items });
      assert.deepEqual(await prepareQueueContexts(t.db, again.queueId), { total: again.items, ready: again.items });
      assert.deepEqual(await t.db.reviewContext.findMany({ orderBy: { key: "asc" } }), rows, "the same rows, not rewritten");
    });

    test("an opened item shows exactly what its cut's replay context gives, for every queue kind", async () => {
      for (const kind of ["dependency", "failure", "ab"] as const) {
        const made = await createQueue(t.db, {
          runId,
          kind,
          seed: 3,
          ...(kind === "ab" ? { policyA: "none", policyB: "tool-prune" } : {}),
          ...(kind === "failure" ? { blind: false } : {}),
        });
        assert.ok(made.ok, `${kind}: ${JSON.stringify(made)}`);
        const items = await itemsOf(made.queueId);
        for (const item of items.slice(0, 3)) {
          const view = await getItemView(t.db, made.queueId, runId, item, "ann@example.test");
          assert.ok(view, `${kind}: ${item.id}`);
          const context = await loadCutContext(t.db, runId, item.ref.sessionId, item.ref.cut);
          const title = (await t.db.traceSession.findUniqueOrThrow({ where: { id: item.ref.sessionId } })).title;
          const fresh = buildItemContext(context!, item, title, null);
          assert.equal(view.sessionTitle, title);
          if (view.queue === "dependency" && fresh.screen === "dependency") {
            assert.deepEqual(
              { prefix: view.prefix, future: view.future, candidates: view.candidates, prefixStart: view.prefixStart },
              { prefix: fresh.prefix, future: fresh.future, candidates: fresh.candidates, prefixStart: fresh.prefixStart },
            );
          } else if (view.queue === "ab" && fresh.screen === "ab" && item.queue === "ab") {
            assert.deepEqual(
              [view.A, view.B, view.future],
              [fresh.projections[item.sides.A], fresh.projections[item.sides.B], fresh.future],
              "sides mapped at open",
            );
            assert.ok(!JSON.stringify(view).includes(`"${item.sides.A}"`) || item.sides.A === "none", "no policy name leaks through the stored form");
          } else if (view.queue === "failure_category" && fresh.screen === "failure") {
            assert.deepEqual([view.view, view.removed, view.objectIds], [fresh.view, fresh.removed, fresh.objectIds]);
            assert.equal(view.evidence?.unitKey, `${item.ref.sessionId}#${item.ref.cut}#${view.policy}`);
          } else assert.fail(`${kind}: view ${view.queue} against ${fresh.screen}`);
          assert.ok(await t.db.reviewContext.findUnique({ where: { key: itemContextKey(item) } }), "stored on first open");
        }
      }
    });

    test("opening is a lease and a row read: a stored context is used as stored; a deleted session takes its contexts with it", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency" });
      assert.ok(made.ok);
      const opened = await openNextItem(t.db, made.queueId, "bob@example.test", clock);
      assert.ok(opened.ok && opened.item);
      const key = itemContextKey(opened.item);
      await getItemView(t.db, made.queueId, runId, opened.item, "bob@example.test");
      const row = await t.db.reviewContext.findUniqueOrThrow({ where: { key } });
      const marked = JSON.stringify({ ...JSON.parse(row.body), sessionTitle: "stored title" });
      await t.db.reviewContext.update({ where: { key }, data: { body: marked } });
      assert.equal((await getItemView(t.db, made.queueId, runId, opened.item, "bob@example.test"))?.sessionTitle, "stored title", "read, not rebuilt");
      const session = await t.db.traceSession.findUniqueOrThrow({ where: { id: opened.item.ref.sessionId }, select: { uploadId: true } });
      await t.db.upload.delete({ where: { id: session.uploadId } });
      assert.equal(await t.db.reviewContext.count({ where: { sessionId: opened.item.ref.sessionId } }), 0);
      assert.equal(await getItemView(t.db, made.queueId, runId, opened.item, "bob@example.test"), null, "the item's session no longer exists");
    });
  });
}
