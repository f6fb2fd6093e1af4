import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { manualClock } from "../../lib/review";
import { addComment } from "../../server/review/add-comment";
import { assignQueueItems } from "../../server/review/assign-items";
import { createQueue } from "../../server/review/create-queue";
import { loadItemActivity } from "../../server/review/item-activity";
import { getItemView } from "../../server/review/item-view";
import { openItem } from "../../server/review/next-item";
import { queueItem } from "../../server/review/queue-state";
import { saveLabel } from "../../server/review/save-label";
import { createUser } from "../../server/users/create-user";
import { createJudgedRun } from "../helpers/judged-run";
import { ENGINES, type TestDb } from "../helpers/test-db";

const ANN = { id: "u-ann", email: "ann@example.test" };
const BOB = { id: "u-bob", email: "bob@example.test" };

for (const engine of ENGINES) {
  describe(`an item's activity (the refresh after a save) on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    const clock = manualClock(Date.parse("2026-11-23T10:00:00.000Z"));
    before(async () => {
      ({ t, runId } = await createJudgedRun(engine, "activity source"));
      for (const user of [ANN, BOB]) await createUser(t.db, { email: user.email, name: user.email, password: "a-long-test-password", role: "reviewer" });
    });
    after(async () => t.close());

    test("is exactly the changing part of the item's view: the reviewer's latest labels, who completed it, the comments", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(made.ok, JSON.stringify(made));
      const [key] = (await t.db.reviewItem.findMany({ where: { queueId: made.queueId }, orderBy: { position: "asc" } })).map((i) => i.itemKey);
      const opened = await openItem(t.db, made.queueId, key!, ANN.email, clock);
      assert.ok(opened.ok && opened.item);
      const labelId = randomUUID();
      assert.ok((await saveLabel(t.db, { queueId: made.queueId, itemKey: key!, labelId, version: 1, draft: { kind: "cut_review" } }, ANN, clock)).ok);
      const second = await saveLabel(t.db, { queueId: made.queueId, itemKey: key!, labelId, version: 2, draft: { kind: "cut_review" } }, ANN, clock);
      assert.ok(second.ok, JSON.stringify(second));
      assert.ok(
        (await saveLabel(t.db, { queueId: made.queueId, itemKey: key!, labelId: randomUUID(), version: 1, draft: { kind: "cut_review" } }, BOB, clock)).ok,
      );
      assert.deepEqual(await addComment(t.db, { queueId: made.queueId, itemKey: key!, body: "look at message 4" }, ANN), { ok: true });

      const activity = await loadItemActivity(t.db, made.queueId, key!, ANN.email);
      assert.ok(activity.ok, JSON.stringify(activity));
      const view = await getItemView(t.db, made.queueId, runId, (await queueItem(t.db, made.queueId, key!))!, ANN.email);
      assert.ok(view);
      assert.deepEqual(activity.activity, { mine: view.mine, completedBy: view.completedBy, comments: view.comments });
      assert.deepEqual(
        activity.activity.mine.map((l) => [l.labelId, l.version]),
        [[labelId, 2]],
        "only Ann's threads, latest version",
      );
      assert.deepEqual([...activity.activity.completedBy].sort(), [ANN.email, BOB.email]);
      assert.deepEqual(
        activity.activity.comments.map((c) => c.body),
        ["look at message 4"],
      );
    });

    test("follows openItem's rule: refused for an item assigned to others, unless the reviewer labeled it before; unknown items are not found", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(made.ok, JSON.stringify(made));
      const keys = (await t.db.reviewItem.findMany({ where: { queueId: made.queueId }, orderBy: { position: "asc" } })).map((i) => i.itemKey);
      assert.ok(
        (await saveLabel(t.db, { queueId: made.queueId, itemKey: keys[1]!, labelId: randomUUID(), version: 1, draft: { kind: "cut_review" } }, BOB, clock)).ok,
      );
      assert.deepEqual(await assignQueueItems(t.db, { queueId: made.queueId, reviewers: [ANN.email], from: 1, to: 2 }), { ok: true, items: 2 });

      const refused = await loadItemActivity(t.db, made.queueId, keys[0]!, BOB.email);
      assert.deepEqual(refused.ok ? null : refused.code, "not_assigned");
      assert.equal((await loadItemActivity(t.db, made.queueId, keys[0]!, ANN.email)).ok, true, "the assignee sees it");
      assert.equal((await loadItemActivity(t.db, made.queueId, keys[1]!, BOB.email)).ok, true, "Bob labeled it before it was assigned to Ann");
      const missing = await loadItemActivity(t.db, made.queueId, "dependency:nope", ANN.email);
      assert.deepEqual(missing.ok ? null : missing.code, "not_found");
      const otherQueue = await loadItemActivity(t.db, "no-such-queue", keys[0]!, ANN.email);
      assert.deepEqual(otherQueue.ok ? null : otherQueue.code, "not_found");
    });
  });
}
