import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { UsageError } from "../../../cli/args";
import { parseEvalOptions } from "../../../cli/evaluation/options";
import { copySubsetForFile, parseReport, SUBSET, tracefold } from "../../helpers/eval-cli";
import { TRACES_DIR } from "../../helpers/traces";

/** `tracefold eval` refusals: usage errors name the flag, missing or unparsable input fails with a message, never a stack. */
const subset = copySubsetForFile();

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
