import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { BIN, env, parseReport, SUBSET, TOOL_HEAVY, tracefold, tracefoldAsync } from "../../helpers/eval-cli";
import { isPlannerCall, stubJudgeVerdict, stubPlan } from "../../helpers/llm-stub-answers";
import { startLlmStub, type RecordedRequest } from "../../helpers/llm-stub-server";
import { TRACES_DIR } from "../../helpers/traces";

/* `tracefold eval` with a model: the LLM judge and planner against a stub endpoint, their usage and price, and Ctrl-C. */

/**
 * The stub judge fails a cut exactly when the plan shows edits (the control makes none), and
 * answers the first request with prose so one repair round-trip is exercised.
 */
const stubVerdict = (request: RecordedRequest) =>
  stubJudgeVerdict(request, { unchanged: "Nothing was removed.", edited: "Edits removed context the future used." });

test("--judge llm judges every unit through the configured endpoint (stub)", async () => {
  const stub = await startLlmStub(stubVerdict);
  try {
    stub.script({ text: "I think it is fine." });
    const run = await tracefoldAsync(
      [TOOL_HEAVY, join(TRACES_DIR, SUBSET[2]!), "--policies", "none,tool-prune", "--judge", "llm", "--concurrency", "2", "--json"],
      {
        TRACEFOLD_LLM_PROVIDER: "openai",
        TRACEFOLD_LLM_BASE_URL: `${stub.baseUrl}/v1`,
        TRACEFOLD_LLM_MODEL: "stub-judge",
        TRACEFOLD_LLM_MAX_RETRIES: "0",
      },
    );
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assert.equal(report.judge, "llm:openai:stub-judge");
    const [none, prune] = report.policies;
    const units = 2 * report.suite.cuts;
    assert.ok(report.suite.cuts >= 3, `cuts: ${report.suite.cuts}`);
    assert.equal(stub.requests.length, units + 1, "one request per unit, plus one repair");
    assert.equal(none!.noImpactPct, 100);
    assert.equal(none!.n, report.suite.cuts);
    assert.ok(prune!.prunePct > 0 && prune!.noImpact < prune!.n, "edited cuts are judged impacted");
    assert.equal(prune!.failures.uncategorized, prune!.n - prune!.noImpact, "an LLM verdict has no Table 7 category");
    assert.ok(stub.requests.every((r) => r.path === "/v1/chat/completions"));
    // The stub reports 11 input and 7 output tokens per answer; the endpoint has no prices.
    const calls = stub.requests.length;
    assert.deepEqual(report.llmUsage, {
      judge: { calls, inputTokens: 11 * calls, cachedInputTokens: 0, outputTokens: 7 * calls, costUsd: 0, unpricedCalls: calls },
    });
  } finally {
    await stub.close();
  }
});

/** Planner prompts (the Self-GC contract) get a plan folding the first function turn shown; the rest are judge calls. */
const stubPlanOrVerdict = (request: RecordedRequest) => (isPlannerCall(request) ? stubPlan(request) : stubVerdict(request));

test("--planner llm --judge llm: tokens and price per purpose, in llmUsage (--json) and in the human report", async () => {
  const stub = await startLlmStub(stubPlanOrVerdict);
  try {
    const args = [join(TRACES_DIR, SUBSET[2]!), "--policies", "self-gc,oldest-turn", "--planner", "llm", "--judge", "llm"];
    // $2 per million input tokens, $8 per million output tokens: 11 × 2 + 7 × 8 = 78 micro-USD a call.
    const endpoint = {
      TRACEFOLD_LLM_PROVIDER: "openai",
      TRACEFOLD_LLM_BASE_URL: `${stub.baseUrl}/v1`,
      TRACEFOLD_LLM_MODEL: "stub-both",
      TRACEFOLD_LLM_MAX_RETRIES: "0",
      TRACEFOLD_LLM_PRICE_INPUT: "2",
      TRACEFOLD_LLM_PRICE_OUTPUT: "8",
    };
    const run = await tracefoldAsync([...args, "--json"], endpoint);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    const planner = stub.requests.filter(isPlannerCall).length;
    const judge = stub.requests.length - planner;
    assert.equal(planner, report.suite.cuts, "self-gc plans once per cut");
    assert.equal(judge, 2 * report.suite.cuts, "one verdict per unit");
    const usage = report.llmUsage!;
    assert.deepEqual(Object.keys(usage).sort(), ["judge", "planner"]);
    for (const [purpose, calls] of [
      ["planner", planner],
      ["judge", judge],
    ] as const) {
      const entry = usage[purpose]!;
      assert.deepEqual(
        [entry.calls, entry.inputTokens, entry.outputTokens, entry.cachedInputTokens, entry.unpricedCalls],
        [calls, 11 * calls, 7 * calls, 0, 0],
        purpose,
      );
      assert.ok(Math.abs(entry.costUsd - calls * 78e-6) < 1e-12, `${purpose}: ${entry.costUsd}`);
    }

    const human = await tracefoldAsync(args, endpoint);
    assert.equal(human.code, 0, human.stderr);
    const table = human.stdout.slice(human.stdout.indexOf("LLM usage"));
    const row = (label: string) =>
      table
        .split("\n")
        .find((l) => l.startsWith(label))
        ?.split(/\s{2,}/);
    assert.deepEqual(row("Planner"), [
      "Planner",
      "openai:stub-both",
      String(planner),
      String(11 * planner),
      "0",
      String(7 * planner),
      `$${(planner * 78e-6).toFixed(4)}`,
    ]);
    assert.deepEqual(row("Judge"), ["Judge", "openai:stub-both", String(judge), String(11 * judge), "0", String(7 * judge), `$${(judge * 78e-6).toFixed(4)}`]);
    assert.equal(row("Total")?.at(-1), `$${((planner + judge) * 78e-6).toFixed(4)}`);
  } finally {
    await stub.close();
  }
});

test("the dependency judge with the rule-based planner calls no model and prints no llmUsage; --planner llm needs self-gc", () => {
  const run = tracefold([TOOL_HEAVY, "--policies", "none,self-gc", "--json"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal("llmUsage" in parseReport(run.stdout), false);
  const refused = tracefold([TOOL_HEAVY, "--policies", "none", "--planner", "llm"]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--planner llm chooses Self-GC's planner: add self-gc to --policies/);
});

test("Ctrl-C during --judge llm cancels the model calls in flight and exits 130 without a report", { timeout: 120_000 }, async () => {
  const stub = await startLlmStub(stubVerdict);
  try {
    stub.script(...Array.from({ length: 4 }, () => ({ hold: true })));
    // Its own process group, like a terminal's foreground job: Ctrl-C signals the wrapper and the command alike.
    const child = spawn(
      process.execPath,
      [BIN, "eval", TOOL_HEAVY, join(TRACES_DIR, SUBSET[2]!), "--policies", "none,tool-prune", "--judge", "llm", "--concurrency", "4", "--json"],
      {
        env: env({
          TRACEFOLD_LLM_PROVIDER: "openai",
          TRACEFOLD_LLM_BASE_URL: `${stub.baseUrl}/v1`,
          TRACEFOLD_LLM_MODEL: "stub-judge",
          TRACEFOLD_LLM_MAX_RETRIES: "0",
          TRACEFOLD_LLM_TIMEOUT_MS: "600000",
        }),
        detached: true,
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await stub.whenRequests(4);
    process.kill(-child.pid!, "SIGINT");
    // The held calls never answer: the command ends only because it aborted them.
    await stub.whenClosed(4);
    assert.equal(await exited, 130, stderr);
    assert.equal(stub.requests.length, 4, "no unit started after Ctrl-C");
    assert.equal(stdout, "", "no partial report");
    assert.match(stderr, /interrupted after 0 units; the model calls in flight were cancelled/);
  } finally {
    await stub.close();
  }
});
