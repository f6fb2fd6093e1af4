import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { extractDependencies } from "../../../lib/evaluation/judge/dependencies";
import { FAILURE_CATEGORY_IDS } from "../../../lib/scenario";
import { analyze, call, cutBefore, prose, result, session, step, text, type Spec } from "./fixtures";
import { measureRecall } from "./scenario-recall";

describe("dependency extraction recovers the scenarios' planted ground truth", () => {
  test("recall ≥ 0.8 for every failure category on 12 scenarios across the three workloads", (t) => {
    const report = measureRecall();
    t.diagnostic(`scenarios ${report.scenarios}, cuts ${report.cuts}`);
    for (const category of FAILURE_CATEGORY_IDS) {
      const { expected, recovered, recall } = report.byCategory[category];
      t.diagnostic(`${category}: recall ${recall.toFixed(3)} (${recovered}/${expected})`);
      assert.ok(expected >= 9, `${category}: only ${expected} expected cases`);
      assert.ok(recall >= 0.8, `${category}: recall ${recall}`);
    }
    t.diagnostic(`precision ${report.precision.toFixed(3)} (${report.planted}/${report.extracted} extracted dependencies are planted anchors or parts of one)`);
    assert.ok(report.precision >= 0.4, `precision ${report.precision}`);
  });
});

describe("the re-discovery rule", () => {
  const build = (futureFirst: "use" | "tool" | "user") => {
    const use: Spec = ["assistant", [text("Waiting on JOB-48213 now.")]];
    const tool = step("c9", "exec", { cmd: "schedctl list" }, "queued JOB-48213 on pool default");
    const user: Spec = ["user", [text("The job is JOB-48213, remember?")]];
    const future: Spec[] = futureFirst === "use" ? [use, ...tool] : futureFirst === "tool" ? [...tool, use] : [user, use];
    return analyze(
      session([
        ["user", [text("Rerun the nightly job")]],
        ...step("c1", "exec", { cmd: "schedctl rerun nightly" }, "queued JOB-48213 on pool default"),
        ["assistant", [text("Queued.")]],
        ...future,
      ]),
    );
  };

  test("a value used before any future tool result repeats it is a dependency", () => {
    const a = build("use");
    const { dependencies } = extractDependencies(a.session, a.index, 3);
    const job = dependencies.find((d) => d.value === "JOB-48213");
    assert.ok(job, "JOB-48213 is a dependency");
    assert.equal(job.kind, "id");
    assert.deepEqual(
      { message: job.plantedAt.message, part: job.plantedAt.part, objectId: job.plantedAt.objectId },
      { message: 2, part: 0, objectId: "function:exec:1" },
    );
    assert.deepEqual(job.usedAt, { message: 4, part: 0 });
    assert.equal(job.usedBeforeNextRequest, true);
  });

  test("a value a future tool result re-discovers first is not a dependency", () => {
    const a = build("tool");
    const set = extractDependencies(a.session, a.index, 3);
    assert.ok(!set.dependencies.some((d) => d.value === "JOB-48213"));
    assert.ok(set.stats.rediscovered >= 1);
  });

  test("a value the user supplies again first is not a dependency either", () => {
    const a = build("user");
    assert.ok(!extractDependencies(a.session, a.index, 3).dependencies.some((d) => d.value === "JOB-48213"));
  });

  test("the harness's recorded compaction summary in the future is not a use, but it re-supplies what it carries", () => {
    const a = analyze(
      session([
        ["user", [text("Rerun the nightly job")]],
        ...step("c1", "exec", { cmd: "schedctl rerun nightly" }, "queued JOB-48213 on pool default"),
        ["assistant", [text("Queued.")]],
        ["user", [text("Summary of the earlier conversation: JOB-48213 was queued.")]],
        ["assistant", [text("Checking JOB-48213.")]],
      ]),
    );
    a.session.messages[4]!.meta = { compactSummary: true };
    // The agent received the summary before it said "Checking JOB-48213": the id was supplied again.
    assert.ok(!extractDependencies(a.session, a.index, 3).dependencies.some((d) => d.value === "JOB-48213"));
    const plain = analyze({
      ...a.session,
      messages: a.session.messages.map((m, i) => (i === 4 ? { ...m, parts: [text("Go on.")], meta: { compactSummary: true } } : m)),
    });
    assert.ok(
      extractDependencies(plain.session, plain.index, 3).dependencies.some((d) => d.value === "JOB-48213"),
      "a summary without the id re-supplies nothing",
    );
  });
});

describe("what counts as a dependency", () => {
  const a = analyze(
    session([
      ["system", [text("You are a careful agent.")]],
      ["user", [text("Fix the export. Never use --force when rerunning the ledger export.\nI don't know why it broke.")]],
      ...step(
        "c1",
        "exec",
        { cmd: "cat report.txt", timeout: 120000 },
        "total: $12,480.50 on 2025-03-03 at 02:00, version 1.2.3, see src/app/main.ts:42\nrows 17 and 20",
      ),
      ...step(
        "c2",
        "read_file",
        { path: "/srv/app/config.yaml" },
        `${prose(300)}\nretry budget exhausted after 9 attempts at batch 208/659\n${prose(300, "q")}`,
      ),
      ["assistant", [text("Found it.")]],
      ["assistant", [call("c3", "exec", { cmd: "rerun ledger export --pool=canary", timeout: 120000 })]],
      ["tool", [result("c3", "ok")]],
      [
        "assistant",
        [
          text(
            "Total was $12,480.50 (2025-03-03, 1.2.3, rows 17). Edit src/app/main.ts and /srv/app/config.yaml. The log said: retry budget exhausted after 9 attempts at batch 208/659. Not in the prefix: JOB-99999.",
          ),
        ],
      ],
    ]),
  );
  const deps = extractDependencies(a.session, a.index, 7).dependencies;
  const values = deps.map((d) => d.value);

  test("numbers need ≥ 3 significant digits or a currency/decimal; dates, times, versions and line numbers are not numbers", () => {
    assert.ok(values.includes("$12,480.50"));
    for (const v of ["2025", "03", "02", "1.2.3", "1.2", "17", "42"]) assert.ok(!values.includes(v), `${v} is not a dependency`);
  });

  test("paths and long shared spans are found; values absent from the prefix are not", () => {
    assert.ok(values.includes("src/app/main.ts"));
    assert.ok(values.includes("/srv/app/config.yaml"));
    assert.ok(
      values.some((v) => v.includes("retry budget exhausted after 9 attempts at batch 208/659")),
      values.join(" | "),
    );
    assert.ok(!values.includes("JOB-99999"));
  });

  test("a number only the agent's own short tool calls typed (a timeout) is its own choice, not a dependency", () => {
    assert.ok(!values.includes("120000"));
  });

  test("a user constraint is a dependency when a future step shares a content word; casual negation is not", () => {
    const constraint = deps.find((d) => d.kind === "constraint");
    assert.ok(constraint, "the constraint sentence is a dependency");
    assert.equal(constraint.value, "Never use --force when rerunning the ledger export.");
    assert.deepEqual(constraint.usedAt, { message: 7, part: 0 });
    assert.ok(!values.some((v) => v.includes("don't know")));
  });

  test("dependencies are ordered by first use and numbered", () => {
    assert.deepEqual(
      deps.map((d) => d.id),
      deps.map((_, i) => `dep-${i + 1}`),
    );
    for (let i = 1; i < deps.length; i++) assert.ok(deps[i - 1]!.usedAt.message <= deps[i]!.usedAt.message);
  });
});

describe("identifiers", () => {
  test("a code identifier counts only when rare in the prefix (≤ 3 parts)", () => {
    const mentions = (n: number): Spec[] => Array.from({ length: n }, (_, i) => ["assistant", [text(`note ${"abcdefgh"[i]}: the loadSessionMessages helper`)]]);
    // Identifiers count only where the agent writes them into a call (prose mentions are narrative).
    const build = (n: number) =>
      analyze(
        session([
          ["user", [text("Refactor")]],
          ...mentions(n),
          ["assistant", [call("e1", "edit", { text: "return loadSessionMessages(id)" })]],
          ["tool", [result("e1", "ok")]],
        ]),
      );
    const rare = build(2);
    const common = build(5);
    assert.ok(extractDependencies(rare.session, rare.index, 3).dependencies.some((d) => d.value === "loadSessionMessages" && d.kind === "identifier"));
    assert.ok(!extractDependencies(common.session, common.index, 6).dependencies.some((d) => d.value === "loadSessionMessages"));
  });
});

describe("bounded work", () => {
  test("a 3 MB session extracts at four cuts in well under the naive quadratic time", async () => {
    const { generateScenario } = await import("../../../lib/scenario");
    const { buildContextIndex } = await import("../../../lib/compaction/context/objects");
    const { cachedTokenizer } = await import("../../../lib/tokens");
    const { session: big } = generateScenario({ workload: "scheduled-task-debug", seed: 5, targetTokens: 800_000 });
    const index = buildContextIndex(big, cachedTokenizer("o200k"));
    const started = Date.now();
    for (const share of [0.5, 0.7, 0.9]) extractDependencies(big, index, cutBefore(big, Math.floor(big.messages.length * share)));
    extractDependencies(big, index, cutBefore(big, big.messages.length - 1));
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
  });
});
