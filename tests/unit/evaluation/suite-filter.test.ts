import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { SessionSummary } from "../../../lib/evaluation/suites/session-summary";
import { summarizeSession } from "../../../lib/evaluation/suites/session-summary";
import { matchesSummary, SuiteFilterSchema } from "../../../lib/evaluation/suites/suite-filter";
import { formatSuiteFilterText, parseSuiteFilterText, SuiteFilterSyntaxError } from "../../../lib/evaluation/suites/suite-filter-text";
import { selectSummaries } from "../../../lib/evaluation/suites/suites";
import { analyze, session, step, text } from "./fixtures";

const summary = (over: Partial<SessionSummary> = {}): SessionSummary => ({
  id: "s",
  format: "claude_code_jsonl",
  models: ["claude-sonnet-4-5"],
  tools: ["bash", "exec"],
  messages: 80,
  tokens: 40_000,
  nativeCompactions: 0,
  workload: "shell",
  toolResults: 30,
  cuts: 3,
  sustainedPressure: 0.6,
  ...over,
});

const refused = (text: string, message: string) =>
  assert.throws(
    () => parseSuiteFilterText(text),
    (e: unknown) => e instanceof SuiteFilterSyntaxError && e.message === message,
  );

describe("parseSuiteFilterText", () => {
  test("reads every key; a format prefix resolves to its id; repeated list keys are alternatives", () => {
    assert.deepEqual(
      parseSuiteFilterText(
        "format=claude-code,workload=shell,workload=file,minMessages=50,maxMessages=400,model=sonnet,tool=Bash,minTokens=0,maxTokens=90000,nativeCompaction=false",
      ),
      {
        formats: ["claude_code_jsonl"],
        workloads: ["shell", "file"],
        minMessages: 50,
        maxMessages: 400,
        models: ["sonnet"],
        tools: ["Bash"],
        minTokens: 0,
        maxTokens: 90_000,
        hasNativeCompaction: false,
      },
    );
    assert.deepEqual(parseSuiteFilterText(" format = codex_rollout_jsonl , "), { formats: ["codex_rollout_jsonl"] }, "spaces and a trailing comma are fine");
  });

  test("unknown key: the exact message", () => {
    refused(
      "format=codex,length=5",
      'unknown filter key "length"; expected one of format, model, tool, workload, minMessages, maxMessages, minTokens, maxTokens, nativeCompaction',
    );
  });

  test("bad numbers: negative, fractional, words, too large", () => {
    refused("minMessages=-1", 'filter key minMessages must be a whole number, got "-1"');
    refused("minMessages=2.5", 'filter key minMessages must be a whole number, got "2.5"');
    refused("maxTokens=lots", 'filter key maxTokens must be a whole number, got "lots"');
    refused("maxTokens=99999999999999999999", 'filter key maxTokens must be a whole number, got "99999999999999999999"');
  });

  test("min above max is refused, naming both", () => {
    refused("minMessages=50,maxMessages=10", "maxMessages (10) is below minMessages (50)");
    refused("minTokens=5,maxTokens=4", "maxTokens (4) is below minTokens (5)");
    assert.deepEqual(parseSuiteFilterText("minMessages=10,maxMessages=10"), { minMessages: 10, maxMessages: 10 }, "equal bounds are one length");
  });

  test("malformed pairs, empty values, repeats of a single-valued key, empty filter", () => {
    refused("format", 'expected key=value, got "format"');
    refused("=shell", 'expected key=value, got "=shell"');
    refused("workload=", "filter key workload needs a value");
    refused("minMessages=1,minMessages=2", "filter key minMessages is given twice");
    refused(" , ", "the filter is empty; expected key=value pairs separated by commas, e.g. format=claude-code,minMessages=50");
    refused("nativeCompaction=yes", 'filter key nativeCompaction must be true or false, got "yes"');
  });

  test("unknown and ambiguous formats, unknown workloads", () => {
    refused("format=openai", 'format "openai" is ambiguous: openai_chat, openai_responses');
    refused(
      "format=word",
      `unknown format "word"; expected one of claude_code_jsonl, codex_rollout_jsonl, tau_bench_traj, tau2_simulation, gemini_cli_chat, gemini_api_contents, gemini_cli_stream_json, browser_use_history, mini_swe_agent_traj, swe_agent_traj, openhands_events, otel_genai_spans, openinference_spans, openllmetry_spans, langfuse_trace, inspect_eval_log, aider_chat_md, openai_chat, openai_responses, anthropic_messages, tracefold_jsonl`,
    );
    assert.deepEqual(parseSuiteFilterText("format=swe-agent"), { formats: ["swe_agent_traj"] }, "mini_swe_agent_traj does not start with swe_agent_");
    refused("workload=gpu", 'unknown workload "gpu"; expected one of browser, shell, web, file, code, other, mixed, none');
  });

  test("formatSuiteFilterText round-trips", () => {
    const filter = parseSuiteFilterText("workload=shell,format=claude-code,maxTokens=9,nativeCompaction=true,tool=read,tool=grep");
    const text = formatSuiteFilterText(filter);
    assert.equal(text, "format=claude_code_jsonl,tool=read,tool=grep,workload=shell,maxTokens=9,nativeCompaction=true");
    assert.deepEqual(parseSuiteFilterText(text), filter);
  });
});

describe("SuiteFilterSchema", () => {
  test("errors are located by field", () => {
    const r = SuiteFilterSchema.safeParse({ minMessages: 9, maxMessages: 3, workloads: [], formats: ["nope"], minTokens: 1.5 });
    assert.equal(r.success, false);
    const byPath = Object.fromEntries(r.error!.issues.map((i) => [i.path.join("."), i.message]));
    assert.equal(byPath["workloads"], "pick at least one workload");
    assert.match(byPath["formats.0"]!, /^format must be one of claude_code_jsonl/);
    assert.equal(byPath["minTokens"], "minTokens must be a whole number");
  });

  test("min above max is located on the max field", () => {
    const r = SuiteFilterSchema.safeParse({ minMessages: 9, maxMessages: 3 });
    assert.deepEqual(
      r.error?.issues.map((i) => [i.path.join("."), i.message]),
      [["maxMessages", "maxMessages (3) is below minMessages (9)"]],
    );
  });
});

describe("matchesSummary", () => {
  test("every given field must hold; lists match any value; names case-insensitively", () => {
    const s = summary();
    assert.equal(matchesSummary(s, {}), true);
    assert.equal(matchesSummary(s, { formats: ["codex_rollout_jsonl", "claude_code_jsonl"] }), true);
    assert.equal(matchesSummary(s, { models: ["SONNET"] }), true);
    assert.equal(matchesSummary(s, { models: ["gpt"] }), false);
    assert.equal(matchesSummary(s, { tools: ["BASH"] }), true);
    assert.equal(matchesSummary(s, { tools: ["read"] }), false);
    assert.equal(matchesSummary(s, { workloads: ["file", "shell"] }), true);
    assert.equal(matchesSummary(s, { workloads: ["shell"], formats: ["codex_rollout_jsonl"] }), false, "all keys must hold");
  });

  test("length bounds are inclusive", () => {
    const s = summary({ messages: 50, tokens: 1000 });
    assert.equal(matchesSummary(s, { minMessages: 50, maxMessages: 50 }), true);
    assert.equal(matchesSummary(s, { minMessages: 51 }), false);
    assert.equal(matchesSummary(s, { maxTokens: 999 }), false);
    assert.equal(matchesSummary(s, { minTokens: 1000 }), true);
  });

  test("native compaction: true needs one, false needs none", () => {
    assert.equal(matchesSummary(summary({ nativeCompactions: 2 }), { hasNativeCompaction: true }), true);
    assert.equal(matchesSummary(summary({ nativeCompactions: 2 }), { hasNativeCompaction: false }), false);
    assert.equal(matchesSummary(summary(), { hasNativeCompaction: false }), true);
  });

  test("a filter that matches nothing selects an empty suite (the Hard Set of it too)", () => {
    const all = [summary({ id: "a" }), summary({ id: "b", workload: "file" })];
    assert.deepEqual(selectSummaries(all, { kind: "filter", filter: { workloads: ["browser"] } }), []);
    assert.deepEqual(selectSummaries(all, { kind: "hard", filter: { minMessages: 1000 } }), []);
    assert.deepEqual(
      selectSummaries(all, { kind: "filter", filter: { workloads: ["file"] } }).map((s) => s.id),
      ["b"],
    );
  });
});

describe("summarizeSession", () => {
  test("records what the filters and the Hard Set read", () => {
    const a = analyze(
      session([
        ["user", [text("please look")]],
        ...step("c1", "Bash", { command: "ls" }, "a b c"),
        ...step("c2", "Bash", { command: "cat a" }, "x".repeat(400)),
        ["assistant", [text("done")]],
        ["user", [text("more")]],
        ...step("c3", "Read", { file_path: "/a" }, "y".repeat(400)),
        ["assistant", [text("ok")]],
      ]),
    );
    const s = summarizeSession(a.session, a.index);
    assert.equal(s.messages, a.session.messages.length);
    assert.equal(s.toolResults, 3);
    assert.equal(s.workload, "shell", "two of three tool results are shell");
    assert.ok(s.tools.includes("bash") && s.tools.includes("exec") && s.tools.includes("read"), s.tools.join(","));
    assert.equal(s.tokens, a.index.prefixTokens.at(-1));
    assert.ok(s.cuts > 0);
    assert.deepEqual(JSON.parse(JSON.stringify(s)), s, "plain JSON");
  });
});
