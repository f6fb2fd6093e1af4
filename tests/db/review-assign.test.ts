import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { manualClock } from "../../lib/review";
import { assignQueueItems, queueAssignments } from "../../server/review/assign-items";
import { createQueue } from "../../server/review/create-queue";
import { releaseItemLease } from "../../server/review/lease-item";
import { openItem, openNextItem } from "../../server/review/next-item";
import { saveLabel } from "../../server/review/save-label";
import { createUser } from "../../server/users/create-user";
import { createJudgedRun } from "../helpers/judged-run";
import { ENGINES, type TestDb } from "../helpers/test-db";

const ANN = { id: "u-ann", email: "ann@example.test" };
const BOB = { id: "u-bob", email: "bob@example.test" };

for (const engine of ENGINES) {
  describe(`review assignment on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    const clock = manualClock(Date.parse("2026-11-23T10:00:00.000Z"));
    before(async () => {
      ({ t, runId } = await createJudgedRun(engine, "assignment source"));
      for (const [email, role] of [
        [ANN.email, "reviewer"],
        [BOB.email, "reviewer"],
        ["vic@example.test", "viewer"],
      ] as const)
        await createUser(t.db, { email, name: email, password: "a-long-test-password", role });
    });
    after(async () => t.close());

    test("a slice assigned to one reviewer is offered only to them; the rest stays open to everyone; clearing opens it again", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(made.ok && made.items >= 3, JSON.stringify(made));
      const keys = (await t.db.reviewItem.findMany({ where: { queueId: made.queueId }, orderBy: { position: "asc" } })).map((i) => i.itemKey);
      assert.deepEqual(await assignQueueItems(t.db, { queueId: made.queueId, reviewers: [ANN.email], from: 1, to: 2 }), { ok: true, items: 2 });
      assert.deepEqual(await queueAssignments(t.db, made.queueId), { open: made.items - 2, byReviewer: { [ANN.email]: 2 } });

      const bob = await openNextItem(t.db, made.queueId, BOB.email, clock);
      assert.ok(bob.ok && bob.item);
      assert.equal(bob.item.id, keys[2], "Bob skips the two items assigned to Ann");
      const refused = await openItem(t.db, made.queueId, keys[0]!, BOB.email, clock);
      assert.deepEqual(refused.ok ? null : refused.code, "not_assigned");
      const ann = await openNextItem(t.db, made.queueId, ANN.email, clock);
      assert.ok(ann.ok && ann.item);
      assert.equal(ann.item.id, keys[0], "Ann gets her first assigned item");
      await saveLabel(t.db, { queueId: made.queueId, itemKey: keys[0]!, labelId: randomUUID(), version: 1, draft: { kind: "cut_review" } }, ANN, clock);
      const annNext = await openNextItem(t.db, made.queueId, ANN.email, clock, { current: keys[0]! });
      assert.ok(annNext.ok && annNext.item);
      assert.equal(annNext.item.id, keys[1]);

      await releaseItemLease(t.db, made.queueId, keys[2]!, BOB.email);
      assert.deepEqual(await assignQueueItems(t.db, { queueId: made.queueId, mode: "clear" }), { ok: true, items: made.items });
      assert.deepEqual(await queueAssignments(t.db, made.queueId), { open: made.items, byReviewer: {} });
      const bobAgain = await openNextItem(t.db, made.queueId, BOB.email, clock);
      assert.ok(bobAgain.ok && bobAgain.item);
      assert.equal(bobAgain.item.id, keys[0], "once cleared, Ann's completed item takes its second reviewer");
    });

    test("assignment names reviewer accounts only, and a slice must be in order", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency" });
      assert.ok(made.ok);
      const viewer = await assignQueueItems(t.db, { queueId: made.queueId, reviewers: ["vic@example.test"] });
      assert.ok(!viewer.ok && viewer.code === "invalid_input" && /not a reviewer account: vic@example.test/.test(viewer.message), JSON.stringify(viewer));
      const unknown = await assignQueueItems(t.db, { queueId: made.queueId, reviewers: ["nobody@example.test", ANN.email] });
      assert.ok(!unknown.ok && unknown.message.includes("nobody@example.test") && !unknown.message.includes(ANN.email), JSON.stringify(unknown));
      const none = await assignQueueItems(t.db, { queueId: made.queueId, reviewers: [] });
      assert.ok(!none.ok && none.fieldErrors?.reviewers?.[0] === "pick at least one reviewer");
      const backwards = await assignQueueItems(t.db, { queueId: made.queueId, reviewers: [ANN.email], from: 3, to: 2 });
      assert.ok(!backwards.ok && backwards.fieldErrors?.to?.[0] === "from must not be after to");
      assert.deepEqual(await assignQueueItems(t.db, { queueId: "missing", reviewers: [ANN.email] }).then((o) => o.ok || o.code), "not_found");
      assert.equal(await t.db.reviewItem.count({ where: { queueId: made.queueId, NOT: { assignees: null } } }), 0, "nothing was assigned by a refused request");
    });
  });
}
