import assert from "node:assert/strict";
import { test } from "node:test";
import type { LlmClient, LlmRequest } from "../../../../../lib/llm/types";
import { createSelfCompactPolicy, selfCompactPolicy as policy } from "../../../../../lib/compaction/policies/summary/self-compact";
import type { Session } from "../../../../../lib/trace/model";
import { fires, origins, run, session } from "./fixtures";

const pytest = '{"command":"pytest -q"}';

const stuckLoop = session([
  ["system", "sys"],
  ["user", "fix the build"],
  ["call", "c1", "Bash", pytest],
  ["result", "c1", "collecting…"],
  ["call", "c2", "Bash", pytest],
  ["result", "c2", "collecting…"],
  ["call", "c3", "Bash", pytest],
  ["result", "c3", "collecting…"],
]);
const errorStreak = session([
  ["system", "sys"],
  ["user", "read the config"],
  ["call", "c1", "Read", '{"path":"a.toml"}'],
  ["result", "c1", "no such file", { isError: true }],
  ["call", "c2", "Read", '{"path":"b.toml"}'],
  ["result", "c2", "no such file", { isError: true }],
  ["call", "c3", "Read", '{"path":"c.toml"}'],
  ["result", "c3", "no such file", { isError: true }],
]);
const newRequest = session([
  ["system", "sys"],
  ["user", "list the files"],
  ["call", "c1", "Bash", '{"command":"ls"}'],
  ["result", "c1", "a.py b.py"],
  ["assistant", "There are two files."],
  ["user", "now count their lines"],
]);
const passedAfterFailure = session([
  ["system", "sys"],
  ["user", "make the tests pass"],
  ["call", "c1", "Bash", pytest],
  ["result", "c1", "FAILED tests/test_a.py::test_x - AssertionError\n1 failed, 4 passed"],
  ["call", "c2", "Edit", '{"path":"a.py"}'],
  ["result", "c2", "edited"],
  ["call", "c3", "Bash", pytest],
  ["result", "c3", "5 passed in 0.12s"],
]);
const ordinary = session([
  ["system", "sys"],
  ["user", "explain the project"],
  ["call", "c1", "Read", '{"path":"README.md"}'],
  ["result", "c1", "# Project"],
  ["call", "c2", "Bash", pytest],
  ["result", "c2", "collecting…"],
  ["call", "c3", "Bash", pytest],
  ["result", "c3", "collecting…"],
]);

const cases: [string, Session, "COMPACT" | "CONTINUE", string][] = [
  ["the same tool call repeated 3 times (stuck)", stuckLoop, "COMPACT", "stuck"],
  ["3 failed tool results in a row (stuck)", errorStreak, "COMPACT", "stuck"],
  ["a new user request after an agent step with tool output (subtask finished)", newRequest, "COMPACT", "subtask-finished"],
  ["a test command that passes after it failed (subtask finished)", passedAfterFailure, "COMPACT", "subtask-finished"],
  ["ordinary progress, only 2 identical calls", ordinary, "CONTINUE", "none"],
];
for (const [name, s, verdict, signal] of cases) {
  test(`rubric: ${name} → ${verdict}`, async () => {
    assert.equal(fires(policy, s, 1_000_000), verdict === "COMPACT");
    const result = await run(policy, s);
    assert.ok(result.log[0]!.startsWith(`rubric (deterministic) at message ${s.messages.length}: ${verdict}`), result.log[0]);
    assert.equal((result.details?.rubric as { signal: string }).signal, signal);
    if (verdict === "CONTINUE") {
      assert.deepEqual(
        origins(result),
        s.messages.map((m) => m.index),
      );
      assert.equal(result.actions.length, 0);
    } else {
      assert.ok(result.summary, "COMPACT replaces the context with a summary");
      assert.ok(result.actions.every((a) => a.rule === `self-compact/${signal}`));
    }
  });
}

test("on COMPACT the context becomes the summary plus the latest turn", async () => {
  assert.deepEqual(origins(await run(policy, newRequest)), [0, "summary", 5]);
  // A long single-task run: the latest turn is the request plus its newest two steps.
  assert.deepEqual(origins(await run(policy, stuckLoop)), [0, "summary", 1, 4, 5, 6, 7]);
});

function fakeRubric(answer: string): LlmClient & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    id: "fake-rubric",
    requests,
    complete(request) {
      requests.push(request);
      return Promise.resolve({ text: answer, model: "fake-model" });
    },
  };
}

test("an LLM rubric passed in through the LlmClient decides instead (purpose rubric)", async () => {
  const client = fakeRubric("COMPACT");
  const result = await run(createSelfCompactPolicy({ rubric: client }), ordinary);
  assert.equal(client.requests.length, 1);
  assert.equal(client.requests[0]!.purpose, "rubric");
  assert.ok(client.requests[0]!.messages.at(-1)!.content.includes("pytest -q"));
  assert.ok(result.log[0]!.includes("model fake-rubric") && result.log[0]!.includes("COMPACT"));
  assert.ok(result.summary);
});

test("an LLM rubric answer naming neither verdict falls back to the deterministic rubric", async () => {
  const result = await run(createSelfCompactPolicy({ rubric: fakeRubric("maybe?") }), ordinary);
  assert.ok(result.log[0]!.includes("CONTINUE") && result.log[0]!.includes("deterministic rubric used"));
  assert.equal(result.summary, undefined);
});
