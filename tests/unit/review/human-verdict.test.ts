import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkView } from "../../../lib/evaluation/judge/check-view";
import { extractDependencies } from "../../../lib/evaluation/judge/dependencies";
import { readableText } from "../../../lib/evaluation/judge/part-texts";
import {
  checkAddedDependencies,
  consensusVerdicts,
  deriveHumanVerdict,
  matchKindFor,
  type DependencyLabel,
  type HumanVerdict,
  type Span,
} from "../../../lib/review";
import { analyze, prose, runAt, scriptedPolicy, session, step, text } from "../evaluation/fixtures";
import { confirm } from "./labels";

/**
 * The ops session of the check-view tests, plus a future line that relies on the pool name — a
 * value the dependency judge does not extract, so only a reviewer can add it.
 */
const LOG_LINE = "WARN retry budget exhausted after 9 attempts at batch 208/659 for ledger rows";
const ops = analyze(
  session([
    ["system", [text("You are an ops agent.")]],
    ["user", [text("Rerun the nightly ledger export and send me the report link. Do not touch the production pool.")]],
    ...step("c1", "exec", { cmd: "schedctl rerun nightly-ledger" }, "queued JOB-11111 on pool default\nJOB-11111 FAILED: upstream throttled"),
    ...step("c2", "exec", { cmd: "schedctl logs JOB-11111 --full" }, `${prose(2_000, "a")}\n${LOG_LINE}\n${prose(2_000, "b")}`),
    ...step(
      "c3",
      "exec",
      { cmd: "schedctl rerun nightly-ledger --pool=canary" },
      "queued JOB-22222 on pool canary\nreport: https://reports.example.com/r/abc123",
    ),
    ["assistant", [text("The rerun is queued.")]],
    ["user", [text("Thanks. Wait for it.")]],
    ...step("c4", "exec", { cmd: "schedctl wait JOB-22222" }, "done"),
    [
      "assistant",
      [text(`JOB-22222 finished on pool canary; the log said: ${LOG_LINE}. Report: https://reports.example.com/r/abc123. I kept it off the production pool.`)],
    ],
  ]),
);
const CUT = 10;
const ref = { sessionId: "s", cut: CUT };
const candidates = extractDependencies(ops.session, ops.index, CUT).dependencies;

function spanOf(message: number, needle: string): Span {
  const whole = readableText(ops.session.messages[message]!.parts[0]!);
  const start = whole.indexOf(needle);
  assert.ok(start >= 0, `${needle} not in message ${message}`);
  return { message, part: 0, start, end: start + needle.length, text: needle };
}

const added: DependencyLabel = {
  kind: "dependency",
  labelId: "add-pool",
  version: 1,
  supersedes: null,
  reviewer: "ann",
  createdAt: "2026-11-23T10:00:00.000Z",
  ref,
  decision: "add",
  type: "live_state",
  future: spanOf(12, "pool canary"),
  prefix: spanOf(7, "pool canary"),
};

async function verdictFor(edits: Parameters<typeof scriptedPolicy>[0], labels: DependencyLabel[], unreviewed?: "confirm" | "reject"): Promise<HumanVerdict> {
  const result = await runAt(scriptedPolicy(edits), ops, CUT);
  const checked = checkView({ session: ops.session, index: ops.index, dependencies: candidates, result });
  const { checked: addedChecked, problems } = checkAddedDependencies({ session: ops.session, index: ops.index, result, labels });
  assert.deepEqual(problems, []);
  return deriveHumanVerdict({
    reviewer: "ann",
    ref,
    policy: "scripted",
    labels,
    candidates: checked,
    added: addedChecked,
    ...(unreviewed ? { unreviewed } : {}),
  });
}

const decide = (decision: "confirm" | "reject", value: string, i: number): DependencyLabel =>
  decision === "confirm" ? confirm(`d${i}`, "ann", value, { ref }) : { ...confirm(`d${i}`, "ann", value, { ref }), decision: "reject", type: undefined };
const all = (decision: "confirm" | "reject") => candidates.map((d, i) => decide(decision, d.value, i));

describe("human verdict of a cut × policy", () => {
  test("the fixture's judge candidates include the log line and the new job id but not the pool", () => {
    const values = candidates.map((d) => d.value);
    assert.ok(values.includes(LOG_LINE) && values.includes("JOB-22222"));
    assert.ok(!values.some((v) => v.includes("pool canary")));
  });

  test("confirming a dependency the projection lost flips the verdict; rejecting it restores no-impact", async () => {
    const pruneLog = [{ target: "function:exec:2", action: "prune" as const }];
    const confirmed = await verdictFor(pruneLog, all("confirm"));
    assert.equal(confirmed.noImpact, false);
    assert.deepEqual(
      confirmed.needed.filter((d) => d.status === "lost").map((d) => [d.value, d.category]),
      [[LOG_LINE, "locator_handle"]],
    );
    const rejected = await verdictFor(
      pruneLog,
      all("confirm").map((l, i) => (l.value === LOG_LINE ? decide("reject", LOG_LINE, i) : l)),
    );
    assert.equal(rejected.noImpact, true);
    assert.equal(rejected.rejected, 1);
  });

  test("undecided candidates count as confirmed by default and as rejected on request", async () => {
    const pruneLog = [{ target: "function:exec:2", action: "prune" as const }];
    assert.equal((await verdictFor(pruneLog, [])).noImpact, false);
    const strict = await verdictFor(pruneLog, [], "reject");
    assert.equal(strict.noImpact, true);
    assert.equal(strict.unreviewed, candidates.length);
  });

  test("an added span dependency lost from the projection flips no-impact to impacted", async () => {
    const pruneRerun = [{ target: "function:exec:3", action: "prune" as const }];
    const rejectAll = all("reject");
    assert.equal((await verdictFor(pruneRerun, rejectAll)).noImpact, true);
    const withAdded = await verdictFor(pruneRerun, [...rejectAll, added]);
    assert.equal(withAdded.noImpact, false);
    assert.deepEqual(withAdded.needed, [
      { id: "human:add-pool", value: "pool canary", source: "human", status: "lost", category: "live_state", labelId: "add-pool" },
    ]);
  });

  test("the added dependency is visible with no edits and restorable through a fold", async () => {
    assert.equal((await verdictFor([], [...all("reject"), added])).needed[0]!.status, "visible");
    const folded = await verdictFor([{ target: "function:exec:3", action: "fold" }], [...all("reject"), added]);
    assert.deepEqual([folded.needed[0]!.status, folded.noImpact], ["restorable", true]);
  });

  test("a retracted label or another reviewer's label does not count", async () => {
    const pruneLog = [{ target: "function:exec:2", action: "prune" as const }];
    const bobRejects = all("reject").map((l) => ({ ...l, reviewer: "bob" }));
    assert.equal((await verdictFor(pruneLog, bobRejects, "confirm")).noImpact, false);
    const retracted = all("reject").map((l) => ({ ...l, retracted: true as const }));
    assert.equal((await verdictFor(pruneLog, retracted, "confirm")).noImpact, false);
  });

  test("a span that does not match the session is reported, not checked", async () => {
    const result = await runAt(scriptedPolicy([]), ops, CUT);
    const bad = { ...added, prefix: { ...added.prefix!, start: added.prefix!.start + 1, end: added.prefix!.end + 1 } };
    const { checked, problems } = checkAddedDependencies({ session: ops.session, index: ops.index, result, labels: [bad] });
    assert.deepEqual(checked, []);
    assert.deepEqual(
      problems.map((p) => [p.labelId, p.field]),
      [["add-pool", "prefix"]],
    );
    const missingPart = { ...added, future: { ...added.future!, part: 4 } };
    assert.match(
      checkAddedDependencies({ session: ops.session, index: ops.index, result, labels: [missingPart] }).problems[0]!.message,
      /part 4 does not exist/,
    );
  });

  test("match kinds: single-token handles keep word boundaries, prose matches as a substring", () => {
    assert.equal(matchKindFor("locator_handle", "JOB-22222"), "id");
    assert.equal(matchKindFor("evidence_detail", "12,345.67"), "number");
    assert.equal(matchKindFor("live_state", "pool canary"), "verbatim");
    assert.equal(matchKindFor("behavioral_contract", "Do not touch"), "constraint");
  });

  test("consensus: majority of reviewers, an even split stays undecided", () => {
    const v = (reviewer: string, noImpact: boolean, policy = "p"): HumanVerdict => ({
      reviewer,
      sessionId: "s",
      cut: 10,
      policy,
      noImpact,
      needed: [],
      rejected: 0,
      unreviewed: 0,
    });
    const c = consensusVerdicts([v("a", true), v("b", false), v("c", false), v("a", true, "q"), v("b", false, "q")]);
    assert.deepEqual(
      [c.get("s@10:p"), c.get("s@10:q")],
      [
        { key: "s@10:p", noImpact: false, reviewers: 3 },
        { key: "s@10:q", noImpact: undefined, reviewers: 2 },
      ],
    );
  });
});
