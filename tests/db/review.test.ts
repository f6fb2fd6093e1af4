import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { manualClock, type DependencyItem } from "../../lib/review";
import { createQueue } from "../../server/review/create-queue";
import { acquireItemLease, releaseItemLease, type LeaseOutcome } from "../../server/review/lease-item";
import { loadLabels } from "../../server/review/label-rows";
import { openNextItem } from "../../server/review/next-item";
import { getQueueAgreement } from "../../server/review/queue-agreement";
import { getQueueSummary } from "../../server/review/queue-progress";
import { retractLabelVersion, saveLabel } from "../../server/review/save-label";
import { exportQueueLabels, importQueueLabels } from "../../server/review/transfer-labels";
import { createJudgedRun } from "../helpers/judged-run";
import { ENGINES, type TestDb } from "../helpers/test-db";

const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
];
const POLICIES = ["none", "tool-prune", "oldest-turn"];
const ANN = { id: "u-ann", email: "ann@example.test" };
const BOB = { id: "u-bob", email: "bob@example.test" };

for (const engine of ENGINES) {
  describe(`review queues on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    const clock = manualClock(Date.parse("2026-11-23T10:00:00.000Z"));
    before(async () => {
      ({ t, runId } = await createJudgedRun(engine, "review source", { traces: TRACES, policies: POLICIES }));
    });
    after(async () => t.close());

    const cutReview = (labelId = randomUUID()) => ({ labelId, version: 1, draft: { kind: "cut_review" } });

    test("a dependency queue has one item per judged cut, in the stable order, keyed by lib/review item ids", async () => {
      const results = await t.db.evalResult.findMany({ where: { runId, error: null }, select: { sessionId: true, cut: true } });
      const cuts = new Set(results.map((r) => `${r.sessionId}@${r.cut}`));
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(made.ok, JSON.stringify(made));
      assert.equal(made.items, cuts.size);
      const items = await t.db.reviewItem.findMany({ where: { queueId: made.queueId }, orderBy: { position: "asc" } });
      assert.deepEqual(
        items.map((i) => i.itemKey),
        [...cuts]
          .map((c) => c.split("@") as [string, string])
          .sort(([s1, c1], [s2, c2]) => (s1 < s2 ? -1 : s1 > s2 ? 1 : Number(c1) - Number(c2)))
          .map((p) => p.join("@"))
          .map((c) => `dependency:${runId}|${c}`),
      );
      const again = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(again.ok);
      const keys = (await t.db.reviewItem.findMany({ where: { queueId: again.queueId }, orderBy: { position: "asc" } })).map((i) => i.itemKey);
      assert.deepEqual(
        keys,
        items.map((i) => i.itemKey),
        "rebuilding gives the same keys",
      );
      assert.deepEqual(await createQueue(t.db, { runId, kind: "dependency", overlap: 0 }).then((o) => o.ok || o.fieldErrors), {
        overlap: ["overlap must be at least 1"],
      });
      assert.deepEqual(
        await createQueue(t.db, { runId: "missing", kind: "ab", policyA: "none", policyB: "tool-prune" }).then((o) => !o.ok && o.code),
        "not_found",
      );
    });

    test("failure and A/B queues come from impacted cuts and disagreements", async () => {
      const impacted = await t.db.evalResult.count({ where: { runId, noImpact: false, error: null } });
      assert.ok(impacted > 0, "some policy lost a dependency");
      const failure = await createQueue(t.db, { runId, kind: "failure" });
      assert.ok(failure.ok && failure.items === impacted, JSON.stringify(failure));
      // The control (none) keeps everything: each cut where tool-prune is impacted is a disagreement of the pair.
      const impactedCuts = new Set(
        (await t.db.evalResult.findMany({ where: { runId, policy: "tool-prune", noImpact: false, error: null } })).map((r) => `${r.sessionId}@${r.cut}`),
      );
      const pair = { policyA: "none", policyB: "tool-prune" };
      const ab = await createQueue(t.db, { runId, kind: "ab", seed: 7, ...pair });
      assert.ok(ab.ok && ab.items === impactedCuts.size, JSON.stringify(ab));
      const abItems = await t.db.reviewItem.findMany({ where: { queueId: ab.queueId } });
      const again = await createQueue(t.db, { runId, kind: "ab", seed: 7, ...pair });
      assert.ok(again.ok);
      assert.deepEqual(
        (await t.db.reviewItem.findMany({ where: { queueId: again.queueId }, orderBy: { position: "asc" } })).map((i) => i.payload),
        abItems.sort((a, b) => a.position - b.position).map((i) => i.payload),
        "the same seed gives the same sides",
      );
    });

    test("two reviewers racing for one item: exactly one lease wins, on every attempt", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency" });
      assert.ok(made.ok);
      const item = await t.db.reviewItem.findFirstOrThrow({ where: { queueId: made.queueId, position: 0 } });
      for (let round = 0; round < 10; round++) {
        const reviewers = Array.from({ length: 6 }, (_, i) => `r${round}-${i}@example.test`);
        const outcomes: LeaseOutcome[] = await Promise.all(reviewers.map((r) => acquireItemLease(t.db, made.queueId, item.itemKey, r, 60_000, clock)));
        const winners = outcomes.filter((o) => o.ok);
        assert.equal(winners.length, 1, `round ${round}: ${JSON.stringify(outcomes)}`);
        const row = await t.db.reviewItem.findUniqueOrThrow({ where: { id: item.id } });
        const winner = reviewers[outcomes.findIndex((o) => o.ok)]!;
        assert.equal(row.leaseReviewer, winner);
        for (const o of outcomes) if (!o.ok) assert.deepEqual([o.code, o.code === "held" && o.heldBy], ["held", winner]);
        assert.deepEqual(await releaseItemLease(t.db, made.queueId, item.itemKey, winner), { released: true });
      }
      // Concurrent "next item" calls spread reviewers over different items.
      const opened = await Promise.all(["a", "b", "c"].map((r) => openNextItem(t.db, made.queueId, `${r}@example.test`, clock)));
      assert.ok(made.items >= 3, `the run has ${made.items} cuts`);
      const keys = opened.map((o) => (o.ok && o.item ? o.item.id : "none"));
      assert.equal(new Set(keys.filter((k) => k !== "none")).size, 3, `three distinct items: ${keys.join(", ")}`);
    });

    test("a lapsed lease is taken over; the holder can renew before it lapses", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", leaseMinutes: 1 });
      assert.ok(made.ok);
      const first = await openNextItem(t.db, made.queueId, ANN.email, clock);
      assert.ok(first.ok && first.item);
      const key = first.item.id;
      const held = await acquireItemLease(t.db, made.queueId, key, BOB.email, 60_000, clock);
      assert.equal(held.ok, false);
      clock.advance(59_999);
      assert.ok((await acquireItemLease(t.db, made.queueId, key, ANN.email, 60_000, clock)).ok, "renewed just before expiry");
      clock.advance(59_999);
      assert.equal((await acquireItemLease(t.db, made.queueId, key, BOB.email, 60_000, clock)).ok, false, "still live after the renewal");
      clock.advance(1);
      const taken = await acquireItemLease(t.db, made.queueId, key, BOB.email, 60_000, clock);
      assert.ok(taken.ok, "at exactly expiresAt the lease has lapsed");
      const bobNext = await openNextItem(t.db, made.queueId, BOB.email, clock);
      assert.ok(bobNext.ok && bobNext.item?.id === key, "a reviewer resumes the item they hold");
      assert.deepEqual(await releaseItemLease(t.db, made.queueId, key, ANN.email), { released: false }, "Ann's lapsed lease is not hers to release");
    });

    test("labels: versions append, a retried save never duplicates, a conflicting save is refused, undo retracts", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(made.ok);
      const opened = await openNextItem(t.db, made.queueId, ANN.email, clock);
      assert.ok(opened.ok && opened.item);
      const item = opened.item as DependencyItem;
      const labelId = randomUUID();
      const draft = {
        kind: "dependency",
        decision: "add",
        type: "locator_handle",
        future: { message: item.ref.cut, part: 0, start: 0, end: 1, text: "x" },
        prefix: { message: 0, part: 0, start: 0, end: 1, text: "y" },
      };
      const base = { queueId: made.queueId, itemKey: item.id, labelId };
      const saved = await saveLabel(t.db, { ...base, version: 1, draft }, ANN, clock);
      assert.ok(saved.ok && !saved.duplicate, JSON.stringify(saved));
      // The response was lost: the client retries the same save (later, concurrently, twice).
      clock.advance(5_000);
      const retries = await Promise.all([1, 2].map(() => saveLabel(t.db, { ...base, version: 1, draft }, ANN, clock)));
      assert.ok(
        retries.every((r) => r.ok && r.duplicate),
        JSON.stringify(retries),
      );
      assert.equal(await t.db.reviewLabelRow.count({ where: { labelId } }), 1);
      const conflicting = await saveLabel(t.db, { ...base, version: 1, draft: { ...draft, type: "live_state" } }, ANN, clock);
      assert.deepEqual([conflicting.ok, !conflicting.ok && conflicting.code], [false, "conflict"]);
      const revised = await saveLabel(t.db, { ...base, version: 2, draft: { ...draft, type: "live_state" } }, ANN, clock);
      assert.ok(revised.ok && revised.label.supersedes === 1);
      assert.equal((await saveLabel(t.db, { ...base, version: 4, draft }, ANN, clock)).ok, false, "a gap in versions is refused");
      assert.equal((await saveLabel(t.db, { ...base, version: 3, draft }, BOB, clock)).ok, false, "another reviewer cannot continue Ann's thread");
      assert.equal(
        (await saveLabel(t.db, { ...base, version: 3, draft: { ...draft, reviewer: "mallory" } }, ANN, clock)).ok,
        false,
        "reviewer is set by the server",
      );
      const undo = await retractLabelVersion(t.db, { ...base, version: 3 }, ANN, clock);
      assert.ok(undo.ok && undo.label.retracted === true);
      const undoRetry = await retractLabelVersion(t.db, { ...base, version: 3 }, ANN, clock);
      assert.ok(undoRetry.ok && undoRetry.duplicate);
      const thread = (await loadLabels(t.db, made.queueId)).filter((l) => l.labelId === labelId);
      assert.deepEqual(
        thread.map((l) => [l.version, l.kind === "dependency" && l.type, l.retracted ?? false]),
        [
          [1, "locator_handle", false],
          [2, "live_state", false],
          [3, "live_state", true],
        ],
        "every version kept",
      );
    });

    test("overlap: an item is done when two reviewers completed it; a third reviewer is not given it", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(made.ok);
      const summary0 = await getQueueSummary(t.db, made.queueId, clock);
      assert.deepEqual([summary0!.items, summary0!.done, summary0!.labels], [made.items, 0, 0]);
      const a = await openNextItem(t.db, made.queueId, ANN.email, clock);
      assert.ok(a.ok && a.item);
      const key = a.item.id;
      assert.ok((await saveLabel(t.db, { queueId: made.queueId, itemKey: key, ...cutReview() }, ANN, clock)).ok);
      await releaseItemLease(t.db, made.queueId, key, ANN.email);
      const b = await openNextItem(t.db, made.queueId, BOB.email, clock);
      assert.ok(b.ok && b.item?.id === key, "Bob gets the item Ann completed, for overlap");
      const annAgain = await openNextItem(t.db, made.queueId, ANN.email, clock);
      assert.ok(annAgain.ok && annAgain.item?.id !== key, "Ann is not given an item she completed");
      assert.ok((await saveLabel(t.db, { queueId: made.queueId, itemKey: key, ...cutReview() }, BOB, clock)).ok);
      const summary = await getQueueSummary(t.db, made.queueId, clock);
      assert.deepEqual([summary!.done, summary!.labels, summary!.byReviewer], [1, 2, { [ANN.email]: 1, [BOB.email]: 1 }]);
      const carol = await openNextItem(t.db, made.queueId, "carol@example.test", clock);
      assert.ok(carol.ok && carol.item?.id !== key, "a done item goes to nobody else");
    });

    test("agreement: two reviewers' verdicts on one cut give Cohen's κ inputs; a rejected lost candidate flips one verdict; the judge is compared with people", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 2 });
      assert.ok(made.ok);
      const empty = await getQueueAgreement(t.db, made.queueId, clock);
      assert.deepEqual([empty!.reviewers.method, empty!.humanVerdicts], ["none", 0]);
      // The cut where the judge found the most missing dependencies (under any policy).
      const impacted = await t.db.evalResult.findFirst({ where: { runId, noImpact: false, error: null }, orderBy: { cut: "asc" } });
      assert.ok(impacted, "the run has an impacted cut");
      const key = `dependency:${runId}|${impacted.sessionId}@${impacted.cut}`;
      for (const who of [ANN, BOB]) assert.ok((await saveLabel(t.db, { queueId: made.queueId, itemKey: key, ...cutReview() }, who, clock)).ok);
      const policies = await t.db.evalResult.count({
        where: { runId, error: null, sessionId: key.split("|")[1]!.split("@")[0]!, cut: Number(key.split("@")[1]) },
      });
      const same = await getQueueAgreement(t.db, made.queueId, clock);
      assert.equal(same!.humanVerdicts, 2 * policies, "one verdict per reviewer × policy");
      assert.deepEqual(
        [same!.reviewers.method, same!.reviewers.units, same!.reviewers.percent.rate],
        ["cohen", policies, 1],
        "unreviewed candidates count as confirmed for both: full agreement",
      );
      const judge = same!.judges!.find((j) => j.judge === "dependency")!;
      assert.equal(judge.n, policies);
      assert.equal(judge.accuracy.rate, 1, "people who confirm every candidate reproduce the dependency judge exactly");
      {
        // Bob rejects every candidate the judge found lost: his verdicts become no-impact everywhere.
        const evidence = JSON.parse(impacted.verdict) as { evidence: { dependencies: { id: string; value: string; status: string }[] } };
        for (const d of evidence.evidence.dependencies.filter((d) => d.status === "lost")) {
          const saved = await saveLabel(
            t.db,
            {
              queueId: made.queueId,
              itemKey: key,
              labelId: randomUUID(),
              version: 1,
              draft: { kind: "dependency", decision: "reject", dependencyId: d.id, value: d.value },
            },
            BOB,
            clock,
          );
          assert.ok(saved.ok, JSON.stringify(saved));
        }
        const split = await getQueueAgreement(t.db, made.queueId, clock);
        assert.ok(split!.reviewers.percent.rate < 1, `agreement dropped to ${split!.reviewers.percent.rate}`);
        assert.equal(split!.decisions!.method, "none", "Ann made no decisions to compare");
      }
    });

    test("export → import round trip: JSONL and CSV give back every version, byte for byte", async () => {
      const source = await createQueue(t.db, { runId, kind: "dependency" });
      assert.ok(source.ok);
      const a = await openNextItem(t.db, source.queueId, ANN.email, clock);
      assert.ok(a.ok && a.item);
      const labelId = randomUUID();
      assert.ok(
        (
          await saveLabel(
            t.db,
            { queueId: source.queueId, itemKey: a.item.id, labelId, version: 1, draft: { kind: "cut_review", comment: 'quotes " and, commas\nnewline' } },
            ANN,
            clock,
          )
        ).ok,
      );
      assert.ok((await retractLabelVersion(t.db, { queueId: source.queueId, itemKey: a.item.id, labelId, version: 2 }, ANN, clock)).ok);
      for (const format of ["jsonl", "csv"] as const) {
        const text: string = (await exportQueueLabels(t.db, source.queueId, format))!;
        assert.equal((await importQueueLabels(t.db, source.queueId, text, format)).ok && "skipped", "skipped", "re-importing one's own export is harmless");
        const target = await createQueue(t.db, { runId, kind: "dependency" });
        assert.ok(target.ok);
        // Labels are keyed by their thread id globally: a copy into another queue would collide, so rewrite ids.
        const copied = text.replaceAll(labelId, `${labelId}-${format}`);
        const imported = await importQueueLabels(t.db, target.queueId, copied, format);
        assert.deepEqual(imported, { ok: true, imported: 2, skipped: 0 });
        assert.equal(await exportQueueLabels(t.db, target.queueId, format), copied);
        const bad = await importQueueLabels(t.db, target.queueId, format === "jsonl" ? `{"kind":"ab"}\n` : "kind,labelId\nab,x\n", format);
        assert.ok(!bad.ok && bad.errors.length > 0 && bad.errors.every((e) => e.line >= 1));
      }
    });
  });
}
