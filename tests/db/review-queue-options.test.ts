import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { DENSE_CUT_LEVELS } from "../../lib/evaluation/cuts/cut-levels";
import { manualClock, type QueueItem } from "../../lib/review";
import { createQueue } from "../../server/review/create-queue";
import { getItemView } from "../../server/review/item-view";
import { openNextItem } from "../../server/review/next-item";
import { getQueueSummary } from "../../server/review/queue-progress";
import { retractLabelVersion, saveLabel } from "../../server/review/save-label";
import { createJudgedRun } from "../helpers/judged-run";
import { ENGINES, type TestDb } from "../helpers/test-db";

const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
];
const POLICIES = ["none", "tool-prune", "oldest-turn"];
const ANN = { id: "u-ann", email: "ann@example.test" };
const BOB = { id: "u-bob", email: "bob@example.test" };

/** Queue options (issue 17 item 12): the A/B pair and its cuts, a seeded sample, blind failure queues. */
for (const engine of ENGINES) {
  describe(`review queue options on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    const clock = manualClock(Date.parse("2026-11-23T10:00:00.000Z"));
    before(async () => {
      ({ t, runId } = await createJudgedRun(engine, "options source", { traces: TRACES, policies: POLICIES, cutLevels: DENSE_CUT_LEVELS }));
    });
    after(async () => t.close());

    const keysOf = async (queueId: string) => (await t.db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" } })).map((r) => r.itemKey);
    /** The run's cuts judged for both policies, and those where the judge tells them apart. */
    async function pairCuts(a: string, b: string): Promise<{ all: Set<string>; disagreements: Set<string> }> {
      const rows = await t.db.evalResult.findMany({ where: { runId, error: null, policy: { in: [a, b] } } });
      const byCut = new Map<string, Map<string, boolean>>();
      for (const r of rows) byCut.set(`${r.sessionId}@${r.cut}`, (byCut.get(`${r.sessionId}@${r.cut}`) ?? new Map()).set(r.policy, r.noImpact));
      const both = [...byCut].filter(([, v]) => v.size === 2);
      return { all: new Set(both.map(([k]) => k)), disagreements: new Set(both.filter(([, v]) => v.get(a) !== v.get(b)).map(([k]) => k)) };
    }

    test("an A/B queue holds only the chosen pair: the cuts where the judge disagrees by default, every cut judged for both on request", async () => {
      const expected = await pairCuts("none", "tool-prune");
      assert.ok(
        expected.disagreements.size > 0 && expected.all.size > expected.disagreements.size,
        `the run has both kinds of cut: ${expected.disagreements.size} / ${expected.all.size}`,
      );
      assert.ok((await pairCuts("tool-prune", "oldest-turn")).disagreements.size > 0, "another pair disagrees too, and is left out");

      const made = await createQueue(t.db, { runId, kind: "ab", policyA: "tool-prune", policyB: "none" });
      assert.ok(made.ok, JSON.stringify(made));
      const keys = await keysOf(made.queueId);
      assert.deepEqual(new Set(keys), new Set([...expected.disagreements].map((c) => `ab:${runId}|${c}:none|tool-prune`)));
      const all = await createQueue(t.db, { runId, kind: "ab", policyA: "tool-prune", policyB: "none", cuts: "all" });
      assert.ok(all.ok);
      assert.deepEqual(new Set(await keysOf(all.queueId)), new Set([...expected.all].map((c) => `ab:${runId}|${c}:none|tool-prune`)));

      const summary = await getQueueSummary(t.db, made.queueId, clock);
      assert.deepEqual({ ...summary!.options, seed: 0 }, { seed: 0, pair: ["tool-prune", "none"], cuts: "disagreements", sample: null, blind: false });
      assert.equal(summary!.name, "ab review of options source (tool-prune vs none)");
      assert.equal((await getQueueSummary(t.db, all.queueId, clock))!.options.cuts, "all");
      // A pair the judge never tells apart is an empty queue, refused with the way out.
      assert.equal((await pairCuts("none", "oldest-turn")).disagreements.size, 0);
      const empty = await createQueue(t.db, { runId, kind: "ab", policyA: "none", policyB: "oldest-turn" });
      assert.deepEqual(empty, {
        ok: false,
        code: "empty_queue",
        message: 'nothing to review: the judge never told none and oldest-turn apart at any cut (choose "all cuts" to review them anyway)',
      });
    });

    test("bad settings are refused field by field and write nothing", async () => {
      const before = await t.db.reviewQueue.count();
      const errors = async (input: Record<string, unknown>) => {
        const outcome = await createQueue(t.db, { runId, ...input } as never);
        assert.equal(outcome.ok, false, JSON.stringify(input));
        return !outcome.ok ? outcome.fieldErrors : undefined;
      };
      assert.deepEqual(await errors({ kind: "ab" }), {
        policyA: ["pick policy A: an A/B queue compares two of the run's policies"],
        policyB: ["pick policy B: an A/B queue compares two of the run's policies"],
      });
      assert.deepEqual(await errors({ kind: "ab", policyA: "none", policyB: "none", sampleSize: 0 }), {
        sampleSize: ["sample size must be at least 1"],
        policyB: ["policy B must differ from policy A (both are none)"],
      });
      assert.deepEqual(await errors({ kind: "ab", policyA: "self-gc", policyB: "none" }), {
        policyA: ["self-gc is not a policy of this run (its policies: none, tool-prune, oldest-turn)"],
      });
      assert.deepEqual(await errors({ kind: "ab", policyA: "none", policyB: "tool-prune", cuts: "some" }), { cuts: ["cuts must be disagreements or all"] });
      assert.deepEqual(await errors({ kind: "dependency", policyA: "none", cuts: "all", blind: true }), {
        policyA: ["a policy pair is chosen only for an A/B queue"],
        cuts: ["cuts are chosen only for an A/B queue"],
        blind: ["blind mode is for failure-category queues (A/B items are always blind)"],
      });
      assert.deepEqual(await errors({ kind: "failure", sampleSize: "2.5" }), { sampleSize: ["sample size must be a whole number"] });
      assert.equal(await t.db.reviewQueue.count(), before);
    });

    test("a sample keeps a seeded subset in queue order; the same seed gives the same sample, and the queue says which seed", async () => {
      const full = await createQueue(t.db, { runId, kind: "dependency" });
      assert.ok(full.ok && full.items > 6, JSON.stringify(full));
      const fullKeys = await keysOf(full.queueId);
      const sample = await createQueue(t.db, { runId, kind: "dependency", sampleSize: 4, seed: 99 });
      assert.ok(sample.ok && sample.items === 4, JSON.stringify(sample));
      const keys = await keysOf(sample.queueId);
      assert.deepEqual(
        keys,
        fullKeys.filter((k) => keys.includes(k)),
        "a subset, in the queue's order",
      );
      const again = await createQueue(t.db, { runId, kind: "dependency", sampleSize: 4, seed: 99 });
      assert.ok(again.ok);
      assert.deepEqual(await keysOf(again.queueId), keys);
      const other = await createQueue(t.db, { runId, kind: "dependency", sampleSize: 4, seed: 7 });
      assert.ok(other.ok);
      assert.notDeepEqual(await keysOf(other.queueId), keys, "another seed, another sample");
      assert.deepEqual((await getQueueSummary(t.db, sample.queueId, clock))!.options, {
        seed: 99,
        pair: null,
        cuts: null,
        sample: { size: 4, from: full.items },
        blind: false,
      });
      // An A/B pair sampled: the sample is drawn from that pair's items only.
      const pair = await pairCuts("none", "tool-prune");
      const ab = await createQueue(t.db, { runId, kind: "ab", policyA: "none", policyB: "tool-prune", cuts: "all", sampleSize: 3, seed: 5 });
      assert.ok(ab.ok && ab.items === 3);
      assert.ok((await keysOf(ab.queueId)).every((k) => k.endsWith(":none|tool-prune")));
      assert.deepEqual((await getQueueSummary(t.db, ab.queueId, clock))!.options.sample, { size: 3, from: pair.all.size });
      // Asking for more than there is keeps every item (and says so).
      const big = await createQueue(t.db, { runId, kind: "dependency", sampleSize: 10_000 });
      assert.ok(big.ok && big.items === full.items);
      assert.deepEqual((await getQueueSummary(t.db, big.queueId, clock))!.options.sample, { size: full.items, from: full.items });
    });

    test("failure queues are blind by default: the judge's evidence is withheld until the reviewer answers, then revealed (and stays revealed after an undo)", async () => {
      const blind = await createQueue(t.db, { runId, kind: "failure" });
      const open = await createQueue(t.db, { runId, kind: "failure", blind: false });
      assert.ok(blind.ok && open.ok);
      assert.deepEqual(
        [(await getQueueSummary(t.db, blind.queueId, clock))!.options.blind, (await getQueueSummary(t.db, open.queueId, clock))!.options.blind],
        [true, false],
      );
      assert.equal((await t.db.reviewQueue.findUniqueOrThrow({ where: { id: blind.queueId } })).blind, true, "stored with the queue");

      const opened = await openNextItem(t.db, blind.queueId, ANN.email, clock);
      assert.ok(opened.ok && opened.item);
      const item: QueueItem = opened.item;
      const shown = await getItemView(t.db, open.queueId, runId, item, ANN.email);
      assert.ok(shown?.queue === "failure_category" && shown.blind === "off" && shown.evidence?.culprit, "the unblinded queue shows the judge's culprit");
      const hidden = await getItemView(t.db, blind.queueId, runId, item, ANN.email);
      assert.ok(hidden?.queue === "failure_category");
      assert.deepEqual([hidden.blind, hidden.evidence], ["hidden", null]);
      assert.deepEqual({ ...hidden, blind: "off", evidence: shown.evidence }, shown, "the evidence is all that differs");
      assert.deepEqual([hidden.position, hidden.total], [1, blind.items], "item 1 of N");

      const labelId = randomUUID();
      const saved = await saveLabel(
        t.db,
        {
          queueId: blind.queueId,
          itemKey: item.id,
          labelId,
          version: 1,
          draft: { kind: "failure_category", category: "evidence_detail", culpritId: "function:read:1" },
        },
        ANN,
        clock,
      );
      assert.ok(saved.ok, JSON.stringify(saved));
      const revealed = await getItemView(t.db, blind.queueId, runId, item, ANN.email);
      assert.ok(revealed?.queue === "failure_category");
      assert.deepEqual([revealed.blind, revealed.evidence], ["revealed", shown.evidence]);
      const forBob = await getItemView(t.db, blind.queueId, runId, item, BOB.email);
      assert.ok(forBob?.queue === "failure_category" && forBob.blind === "hidden" && forBob.evidence === null, "Bob has not answered: still hidden for him");
      assert.ok((await retractLabelVersion(t.db, { queueId: blind.queueId, itemKey: item.id, labelId, version: 2 }, ANN, clock)).ok);
      const afterUndo = await getItemView(t.db, blind.queueId, runId, item, ANN.email);
      assert.ok(afterUndo?.queue === "failure_category" && afterUndo.blind === "revealed");
    });
  });
}
