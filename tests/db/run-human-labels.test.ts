import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { manualClock } from "../../lib/review";
import { createRun } from "../../server/evaluation/create-run";
import { runEvaluation } from "../../server/evaluation/run-evaluation";
import { createQueue } from "../../server/review/create-queue";
import { getQueueAgreement } from "../../server/review/queue-agreement";
import { getRunHumanLabels } from "../../server/review/run-human-labels";
import { saveLabel } from "../../server/review/save-label";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** A Claude Code session and a SWE-agent run: 4 cuts, tool-prune impacted at 2 of them, the others never. */
const TRACES = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
];
const POLICIES = ["none", "tool-prune", "oldest-turn"];
const SETTINGS = { suite: { kind: "all" }, policies: POLICIES.map((id) => ({ id })), judge: "dependency", triggerLevel: 0.9 };
const ANN = { id: "u-ann", email: "ann@example.test" };
const BOB = { id: "u-bob", email: "bob@example.test" };

interface Row {
  sessionId: string;
  cut: number;
  policy: string;
  noImpact: boolean;
  verdict: string;
}

for (const engine of ENGINES) {
  describe(`evaluation page human labels on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    let rows: Row[];
    const clock = manualClock(Date.parse("2026-11-23T10:00:00.000Z"));
    before(async () => {
      t = await createTestDb(engine);
      for (const path of TRACES) assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, path) })).status, "imported");
      const created = await createRun(t.db, { settings: SETTINGS, name: "labels source" });
      assert.ok(created.ok, JSON.stringify(created));
      assert.equal(await runEvaluation(t.db, created.runId, { workerId: "test", llm: null }), "done");
      runId = created.runId;
      rows = await t.db.evalResult.findMany({
        where: { runId, error: null },
        select: { sessionId: true, cut: true, policy: true, noImpact: true, verdict: true },
      });
    });
    after(async () => t.close());

    const itemKey = (r: { sessionId: string; cut: number }) => `dependency:${runId}|${r.sessionId}@${r.cut}`;
    const atCut = (r: { sessionId: string; cut: number }) => rows.filter((x) => x.sessionId === r.sessionId && x.cut === r.cut);
    const submit = async (queueId: string, cut: Row, who: typeof ANN) =>
      assert.ok((await saveLabel(t.db, { queueId, itemKey: itemKey(cut), labelId: randomUUID(), version: 1, draft: { kind: "cut_review" } }, who, clock)).ok);

    test("no queue, then a queue nobody labeled: nothing to compare yet; failure queues are not listed", async () => {
      assert.deepEqual(await getRunHumanLabels(t.db, runId, clock), []);
      const failure = await createQueue(t.db, { runId, kind: "failure" });
      assert.ok(failure.ok, JSON.stringify(failure));
      assert.deepEqual(await getRunHumanLabels(t.db, runId, clock), [], "only dependency queues give human no-impact verdicts");
      const made = await createQueue(t.db, { runId, kind: "dependency", name: "fresh" });
      assert.ok(made.ok);
      const [queue, ...rest] = await getRunHumanLabels(t.db, runId, clock);
      assert.equal(rest.length, 0);
      assert.deepEqual([queue!.name, queue!.items, queue!.labeledCuts, queue!.humanVerdicts, queue!.judges], ["fresh", made.items, 0, 0, []]);
      assert.equal(queue!.items, new Set(rows.map((r) => `${r.sessionId}@${r.cut}`)).size);
      assert.deepEqual(await getRunHumanLabels(t.db, "no-such-run", clock), []);
    });

    test("a confirmed cut agrees with the judge; rejecting an impacted cut's missing candidates shows as a disagreement", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", name: "labeled" });
      assert.ok(made.ok);
      const impacted = rows.find((r) => r.policy === "tool-prune" && !r.noImpact)!;
      const agreed = rows.find((r) => r.policy === "tool-prune" && `${r.sessionId}@${r.cut}` !== `${impacted.sessionId}@${impacted.cut}`)!;
      assert.ok(impacted && agreed, "the run has an impacted cut and another cut");
      await submit(made.queueId, agreed, ANN);
      // Reject every candidate any policy lost at the impacted cut: people then find every policy no-impact there.
      const missing = new Map<string, string>();
      for (const row of atCut(impacted)) {
        const verdict = JSON.parse(row.verdict) as { evidence: { dependencies: { id: string; value: string; status: string }[] } };
        for (const d of verdict.evidence.dependencies) if (d.status === "lost") missing.set(d.value, d.id);
      }
      assert.ok(missing.size > 0);
      for (const [value, dependencyId] of missing) {
        const draft = { kind: "dependency", decision: "reject", dependencyId, value };
        assert.ok((await saveLabel(t.db, { queueId: made.queueId, itemKey: itemKey(impacted), labelId: randomUUID(), version: 1, draft }, ANN, clock)).ok);
      }
      await submit(made.queueId, impacted, ANN);

      const queue = (await getRunHumanLabels(t.db, runId, clock)).find((q) => q.id === made.queueId)!;
      const flipped = atCut(impacted).filter((r) => !r.noImpact).length;
      const units = atCut(agreed).length + atCut(impacted).length;
      assert.deepEqual([queue.labeledCuts, queue.humanVerdicts], [2, units]);
      const [judge, ...others] = queue.judges;
      assert.equal(others.length, 0);
      const count = (list: Row[], pass: boolean) => list.filter((r) => r.noImpact === pass).length;
      // Rows people, columns judge: [no-impact, impacted].
      assert.deepEqual(judge!.matrix.counts, [
        [count(atCut(agreed), true) + count(atCut(impacted), true), flipped],
        [0, count(atCut(agreed), false)],
      ]);
      assert.deepEqual([judge!.judge, judge!.n, judge!.accuracy.successes, judge!.accuracy.n], ["dependency", units, units - flipped, units]);
      assert.ok(judge!.accuracy.low < judge!.accuracy.rate && judge!.accuracy.rate < 1);
      const toolPrune = queue.rates.find((r) => r.policy === "tool-prune")!;
      assert.deepEqual(
        [toolPrune.human.successes, toolPrune.human.n],
        [Number(agreed.noImpact) + 1, 2],
        "people: the confirmed cut as the judge saw it, the rejected cut no-impact",
      );
      assert.deepEqual(
        [toolPrune.judgeOnReviewed.successes, toolPrune.judge.n],
        [Number(agreed.noImpact), rows.filter((r) => r.policy === "tool-prune").length],
      );
      // The queue page shows the very same figures.
      const page = await getQueueAgreement(t.db, made.queueId, clock);
      assert.deepEqual([page!.judges, page!.rates], [queue.judges, queue.rates]);
    });

    test("queues are kept apart, newest first: one reviewer's labels in another queue do not move this one", async () => {
      const later = await createQueue(t.db, { runId, kind: "dependency", name: "later" });
      assert.ok(later.ok);
      await submit(later.queueId, rows[0]!, BOB);
      const queues = await getRunHumanLabels(t.db, runId, clock);
      assert.equal(queues.length, 3);
      const byName = new Map(queues.map((q) => [q.name, q]));
      assert.deepEqual([byName.get("later")!.labeledCuts, byName.get("labeled")!.labeledCuts, byName.get("fresh")!.labeledCuts], [1, 2, 0]);
      assert.equal(byName.get("later")!.judges[0]!.n, atCut(rows[0]!).length);
      assert.equal(queues.indexOf(byName.get("later")!) < queues.indexOf(byName.get("fresh")!), true, "newest first");
    });
  });
}
