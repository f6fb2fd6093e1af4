import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { z } from "zod";
import { UsageError } from "../../../cli/args";
import { loadSessions } from "../../../cli/evaluation/load-sessions";
import { parseEvalOptions } from "../../../cli/evaluation/options";
import type { ContractComparison } from "../../../cli/evaluation/report";
import { replayCuts } from "../../../lib/evaluation/cuts/cut-protocol";
import { EvalReportSchema } from "../../../lib/evaluation/aggregate/report-contract";
import { selectSuite } from "../../../lib/evaluation/suites/suites";
import { POLICIES } from "../../../lib/compaction/policies/registry";
import { FAILURE_CATEGORY_IDS } from "../../../lib/scenario/failure-categories";
import { wilson } from "../../../lib/stats/wilson";
import { promptOf, startLlmStub, type RecordedRequest } from "../../helpers/llm-stub-server";
import { TRACES_DIR } from "../../helpers/traces";

/**
 * `tracefold eval` end to end through the real binary, on a handful of real traces of five
 * formats (the whole ../shared/traces run is the README's timing, not a unit test).
 */
const BIN = resolve(__dirname, "../../../cli/bin.mjs");
const SUBSET = [
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
  "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/short.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/coverage-test-fix/transcript.jsonl",
  "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/python-to-rust-port/transcript.jsonl",
  "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json",
  "swe_agent_traj/SWE-agent__SWE-agent/trajectories/demonstrations/ctf/crypto/katy.traj",
  "aider_chat_md/AFI-Protocol__afi-core/.aider.chat.history.md",
];
const TOOL_HEAVY = join(TRACES_DIR, SUBSET[0]!);

/** The documented contract (lib/evaluation/aggregate/report-contract.ts, strict) plus the ranges every figure keeps. */
const pctIn = (x: number | null) => x === null || (x >= 0 && x <= 100);
const ReportSchema = EvalReportSchema.superRefine((report, ctx) => {
  for (const [i, p] of report.policies.entries()) {
    for (const key of ["prunePct", "noImpactPct", "visibleNoImpactPct", "restorableNoImpactPct"] as const) {
      if (!pctIn(p[key])) ctx.addIssue({ code: "custom", path: ["policies", i, key], message: `out of 0–100: ${p[key]}` });
    }
    if (!pctIn(p.ci95[0]) || !pctIn(p.ci95[1])) ctx.addIssue({ code: "custom", path: ["policies", i, "ci95"], message: "out of 0–100" });
  }
});
type Report = z.infer<typeof ReportSchema>;

/** A clean environment: no LLM endpoint unless the test sets one. */
/**
 * The CLI's environment without LLM settings; DATABASE_URL names a database that does not exist, so
 * an endpoint an admin saved in the developer's own studio database cannot leak into these tests.
 */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TRACEFOLD_LLM_")));
  return { ...clean, DATABASE_URL: "file:./data/no-such-workspace-for-cli-tests.db", ...extra } as unknown as NodeJS.ProcessEnv;
}

function tracefold(args: string[], extra: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [BIN, "eval", ...args], { encoding: "utf8", env: env(extra), maxBuffer: 16 * 1024 * 1024 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Asynchronous, so a stub server in this process can answer while the CLI runs. */
function tracefoldAsync(args: string[], extra: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, "eval", ...args], { env: env(extra) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** Exactly one line on stdout, one JSON object in the contract's shape. */
function parseReport(stdout: string): Report {
  const lines = stdout.split("\n").filter((l) => l.length > 0);
  assert.equal(lines.length, 1, `expected exactly one line of JSON, got ${lines.length}`);
  return ReportSchema.parse(JSON.parse(lines[0]!));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Copies (listTraceFiles skips symlinks) each file into its own folder, names kept. */
function copyTraces(paths: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "tracefold-eval-"));
  paths.forEach((path, i) => {
    mkdirSync(join(dir, String(i)));
    copyFileSync(join(TRACES_DIR, path), join(dir, String(i), basename(path)));
  });
  return dir;
}

let subset: string;
before(() => {
  subset = copyTraces(SUBSET);
});
after(() => rmSync(subset, { recursive: true, force: true }));

describe("tracefold eval --json", () => {
  test("all policies on real traces: one contract object, percentages and intervals consistent", () => {
    const run = tracefold([subset, "--policies", "all", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assert.equal(report.judge, "dependency");
    assert.deepEqual(
      report.policies.map((p) => p.id),
      POLICIES.map((p) => p.id),
    );
    assert.ok(report.suite.cuts >= 10, `cuts: ${report.suite.cuts}`);
    for (const p of report.policies) {
      assert.equal(p.n, report.suite.cuts, `${p.id} judged at every cut`);
      assert.equal(p.cuts, p.n);
      assert.equal(p.noImpactPct, round2((100 * p.noImpact) / p.n), p.id);
      const interval = wilson(p.noImpact, p.n);
      assert.deepEqual(p.ci95, [round2(100 * interval.low), round2(100 * interval.high)], p.id);
      assert.deepEqual(Object.keys(p.failures).slice(0, 6), [...FAILURE_CATEGORY_IDS], p.id);
      const impacted = p.n - p.noImpact;
      for (const count of Object.values(p.failures)) assert.ok(count <= impacted, `${p.id}: a category counts impacted cuts`);
      if (impacted > 0)
        assert.ok(
          Object.values(p.failures).some((c) => c > 0),
          `${p.id}: impacted cuts have a category`,
        );
    }
    const pruned = report.policies.filter((p) => p.prunePct > 0);
    assert.ok(pruned.length >= 10, "most policies prune something at 90% pressure");
    assert.ok(
      report.policies.some((p) => p.noImpactPct < 100),
      "some policy loses a dependency on these traces",
    );
  });

  test("--policies none,tool-prune: the control keeps everything, in the order asked", async () => {
    const run = tracefold([subset, "--policies", "none,tool-prune", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assert.deepEqual(
      report.policies.map((p) => p.id),
      ["none", "tool-prune"],
    );
    const [none, prune] = report.policies;
    assert.equal(none!.noImpactPct, 100);
    assert.equal(none!.prunePct, 0);
    assert.ok(Object.values(none!.failures).every((c) => c === 0));
    assert.ok(prune!.prunePct > 0);
    const loaded = await loadSessions([subset]);
    assert.equal(report.suite.sessions, loaded.sessions.length);
    assert.equal(
      report.suite.cuts,
      loaded.sessions.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0),
      "suite.cuts counts session × cut",
    );
  });

  test("--suite hard runs the Hard Set only", async () => {
    const run = tracefold([subset, "--policies", "none,tool-prune", "--suite", "hard", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    const hard = selectSuite((await loadSessions([subset])).sessions, { kind: "hard" });
    assert.ok(hard.length >= 1);
    assert.equal(report.suite.sessions, hard.length);
    assert.equal(
      report.suite.cuts,
      hard.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0),
    );
    assert.equal(report.policies[0]!.n, report.suite.cuts);
  });

  test("--filter narrows the suite to the sessions lib's filter selects (and the Hard Set ranks within them)", async () => {
    const run = tracefold([subset, "--policies", "none", "--filter", "format=claude-code,minMessages=20", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    const chosen = selectSuite((await loadSessions([subset])).sessions, { kind: "filter", filter: { formats: ["claude_code_jsonl"], minMessages: 20 } });
    assert.ok(chosen.length >= 1 && chosen.every((s) => s.session.format === "claude_code_jsonl" && s.session.messages.length >= 20));
    assert.equal(report.suite.sessions, chosen.length);
    assert.equal(
      report.suite.cuts,
      chosen.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0),
    );
    assert.deepEqual(parseEvalOptions([subset, "--suite", "hard", "--filter", "workload=shell"]).filter, { workloads: ["shell"] });
  });

  test("--cut-levels 10,…,90 cuts each session at every level: more cuts, counted and judged with those levels", async () => {
    const levels = [10, 20, 30, 40, 50, 60, 70, 80, 90];
    const run = tracefold([subset, "--policies", "none", "--cut-levels", levels.join(","), "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    const loaded = (await loadSessions([subset])).sessions;
    const dense = loaded.reduce((n, s) => n + replayCuts(s.session, s.index, { levels }).length, 0);
    assert.equal(report.suite.cuts, dense);
    assert.ok(dense > loaded.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0), "denser levels give more cuts");
    assert.equal(report.policies[0]!.n, dense);
    assert.deepEqual(parseEvalOptions([subset]).cutLevels, [50, 70, 90]);
  });

  test("--compare adds McNemar's paired comparison and leaves the contract's keys alone", () => {
    const run = tracefold([subset, "--policies", "none,tool-prune", "--compare", "none,tool-prune", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const { comparison, ...rest } = JSON.parse(run.stdout) as Report & { comparison: ContractComparison };
    const [none, prune] = ReportSchema.parse(rest).policies;
    assert.equal(comparison.pairs, none!.n);
    assert.equal(comparison.onlyB, 0, "the control never loses where tool-prune keeps");
    assert.equal(comparison.onlyA, none!.noImpact - prune!.noImpact);
    assert.equal(comparison.both + comparison.onlyA + comparison.onlyB + comparison.neither, comparison.pairs);
    assert.ok(comparison.pValue > 0 && comparison.pValue <= 1);
  });
});

describe("tracefold eval errors", () => {
  test("an unknown policy id is a usage error naming it", () => {
    const run = tracefold([subset, "--policies", "none,tool-prun", "--json"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown policy "tool-prun"/);
    assert.equal(run.stdout, "");
  });

  test("no trace files and missing paths fail with a message, not a stack", () => {
    const empty = mkdtempSync(join(tmpdir(), "tracefold-eval-empty-"));
    const none = tracefold([empty, "--json"]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no trace files in /);
    const missing = tracefold([join(empty, "nope.jsonl"), "--json"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no such file or directory: .*nope\.jsonl/);
    assert.doesNotMatch(missing.stderr + none.stderr, /at .*\.ts:\d+/);
  });

  test("a file that does not parse is reported with its line; the others are still evaluated", () => {
    const dir = mkdtempSync(join(tmpdir(), "tracefold-eval-bad-"));
    copyFileSync(join(TRACES_DIR, SUBSET[2]!), join(dir, "good.jsonl"));
    writeFileSync(join(dir, "bad.jsonl"), '{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}\n{"type":"assist');
    const run = tracefold([dir, "--policies", "none", "--json"]);
    assert.equal(run.code, 1, "partial failure is not success");
    assert.match(run.stderr, /skipped .*bad\.jsonl/);
    assert.match(run.stderr, /bad\.jsonl:2: /);
    const report = parseReport(run.stdout);
    assert.equal(report.suite.sessions, 1);
    assert.ok(report.policies[0]!.n > 0);
  });

  test("bad option values are usage errors naming the flag", () => {
    const bad = (args: string[], message: RegExp) =>
      assert.throws(
        () => parseEvalOptions([subset, ...args]),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
      );
    bad(["--trigger", "90"], /--trigger must be .* at most 1/);
    bad(["--trigger", "0"], /--trigger must be/);
    bad(["--judge", "human"], /unknown --judge human/);
    bad(["--suite", "easy"], /unknown --suite easy/);
    bad(["--policies", "none", "--compare", "none,codex"], /--compare codex: not among the evaluated --policies/);
    bad(["--compare", "none"], /--compare takes two different policy ids/);
    bad(["--tokenizer", "bpe"], /unknown --tokenizer bpe/);
    bad(
      ["--filter", "format=codex,length=5"],
      /^--filter: unknown filter key "length"; expected one of format, model, tool, workload, minMessages, maxMessages, minTokens, maxTokens, nativeCompaction$/,
    );
    bad(["--filter", "minMessages=many"], /^--filter: filter key minMessages must be a whole number, got "many"$/);
    bad(["--filter", "minMessages=9,maxMessages=3"], /^--filter: maxMessages \(3\) is below minMessages \(9\)$/);
    bad(["--cut-levels", "70,50"], /^--cut-levels takes whole percents .*got "70,50": level 2: cut levels must be strictly increasing: 50 follows 70$/);
    bad(
      ["--cut-levels", "0,x,100"],
      /level 1: each cut level must be at least 1; level 2: each cut level must be a number; level 3: each cut level must be at most 99$/,
    );
    bad(["--cut-levels", ""], /give at least one cut level$/);
    assert.equal(parseEvalOptions([subset, "--trigger", "0.7"]).triggerLevel, 0.7);
    assert.deepEqual(parseEvalOptions([subset, "--cut-levels", "10, 20,30%"]).cutLevels, [10, 20, 30]);
  });

  test("an unknown --filter key exits 2 with the exact message; an empty selection exits 1", () => {
    const run = tracefold([subset, "--filter", "length=5", "--json"]);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr.split("\n")[0],
      'tracefold eval: --filter: unknown filter key "length"; expected one of format, model, tool, workload, minMessages, maxMessages, minTokens, maxTokens, nativeCompaction',
    );
    assert.equal(run.stdout, "");
    const none = tracefold([subset, "--policies", "none", "--filter", "workload=browser", "--json"]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^tracefold eval: the suite selects none of the \d+ sessions loaded \(check --filter\)$/m);
    assert.equal(none.stdout, "");
  });

  test("--judge llm without a configured endpoint says what to set", () => {
    const run = tracefold([subset, "--judge", "llm", "--json"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /--judge llm needs a model endpoint .*TRACEFOLD_LLM_PROVIDER/);
    assert.equal(run.stdout, "");
  });
});

/**
 * The stub judge fails a cut exactly when the plan shows edits (the control makes none), and
 * answers the first request with prose so one repair round-trip is exercised.
 */
function stubVerdict(request: RecordedRequest): string {
  const packet = (request.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === "user")?.content ?? "";
  const unchanged = packet.includes("- no edits: the prefix is unchanged");
  const score = (n: number) => ({ score: n, verdict: n >= 4 ? "pass" : "fail" });
  return JSON.stringify({
    valid: unchanged,
    uncertain: false,
    overall_score: unchanged ? 5 : 2,
    summary: unchanged ? "Nothing was removed." : "Edits removed context the future used.",
    dimension_scores: {
      goal_retention: score(5),
      evidence_retention: score(unchanged ? 5 : 1),
      continuation_readiness: score(unchanged ? 5 : 2),
      compression_safety: score(unchanged ? 5 : 2),
    },
    failure_culprit: null,
  });
}

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
const isPlannerCall = (request: RecordedRequest) => promptOf(request).system.includes("DECIDE IN THIS ORDER");
function stubPlanOrVerdict(request: RecordedRequest): string {
  if (!isPlannerCall(request)) return stubVerdict(request);
  const id = /<turn id="function:([a-z_]+:\d+)"/.exec(promptOf(request).messages.at(-1)?.content ?? "")?.[1];
  return `<above_conversation_summary>Stub planner.</above_conversation_summary>\n<gc_plan>${id ? `<fold kind="function" reason="stable_artifact">${id}</fold>` : ""}</gc_plan>`;
}

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
