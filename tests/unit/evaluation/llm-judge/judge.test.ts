import assert from "node:assert/strict";
import { test } from "node:test";
import { buildJudgePacket, createAbJudge, createLlmJudge, JUDGE_CONTRACT } from "../../../../lib/evaluation/llm-judge";
import type { LlmClient, LlmRequest } from "../../../../lib/llm/types";
import { abJson, resultFor, verdictJson } from "./fixtures";

/** An in-process LlmClient answering from a script and recording requests. */
function scripted(...answers: string[]): LlmClient & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    id: "fake:judge-model",
    requests,
    async complete(request) {
      requests.push(request);
      return { text: answers.shift() ?? "", model: "judge-model-1", inputTokens: 100, outputTokens: 20 };
    },
  };
}

async function packet(policy = "tool-prune") {
  const { session, index, result } = await resultFor(policy);
  return buildJudgePacket({ session, index, result });
}

test("the judge sends the contract and the packet with purpose judge at temperature 0, and returns the verdict", async () => {
  const client = scripted(JSON.stringify(verdictJson()));
  const judge = createLlmJudge(client);
  const p = await packet();
  const outcome = await judge.judge(p);
  assert.equal(judge.id, "llm:fake:judge-model");
  const sent = client.requests[0]!;
  assert.equal(sent.purpose, "judge");
  assert.equal(sent.temperature, 0);
  assert.equal(sent.messages[0]!.content, JUDGE_CONTRACT);
  assert.ok(sent.messages[1]!.content.startsWith(p.text));
  assert.ok(outcome.ok);
  assert.equal(outcome.verdict.failure_culprit?.target_id, "function:web_fetch:1");
  assert.deepEqual(
    outcome.attempts.map((a) => [a.model, a.inputTokens, a.outputTokens]),
    [["judge-model-1", 100, 20]],
  );
});

test("a malformed answer comes back as a typed error with the raw text, not an exception", async () => {
  const judge = createLlmJudge(scripted('{"valid": "yes"}'), { repairAttempts: 0 });
  const outcome = await judge.judge(await packet());
  assert.ok(!outcome.ok);
  assert.equal(outcome.error.code, "schema");
  assert.ok(outcome.error.issues.some((i) => i.path === "valid"));
  assert.equal(outcome.attempts[0]!.raw, '{"valid": "yes"}');
});

test("a culprit outside the packet is rejected against the packet's own object ids", async () => {
  const judge = createLlmJudge(scripted(JSON.stringify(verdictJson({ failure_culprit: { target_id: "function:read:7" } }))), { repairAttempts: 0 });
  const outcome = await judge.judge(await packet());
  assert.ok(!outcome.ok && outcome.error.code === "semantic");
});

test("by default the judge is shown its parse error once and the corrected answer is accepted", async () => {
  const client = scripted("I think it is fine.", JSON.stringify(verdictJson({ valid: true, failure_culprit: null })));
  const outcome = await createLlmJudge(client).judge(await packet());
  assert.ok(outcome.ok && outcome.verdict.noImpact);
  assert.equal(outcome.attempts.length, 2);
  assert.equal(outcome.attempts[0]!.error?.code, "no_json");
  const second = client.requests[1]!.messages;
  assert.deepEqual(
    second.slice(-2).map((m) => m.role),
    ["assistant", "user"],
  );
  assert.match(second.at(-1)!.content, /^Your answer was rejected: .*no JSON object/);
});

test("one repair only: a second malformed answer is the outcome, carrying the second parse error", async () => {
  const client = scripted("still prose", '{"valid": "yes"}', JSON.stringify(verdictJson()));
  const outcome = await createLlmJudge(client).judge(await packet());
  assert.ok(!outcome.ok);
  assert.equal(client.requests.length, 2);
  assert.deepEqual(
    outcome.attempts.map((a) => a.error?.code),
    ["no_json", "schema"],
  );
  assert.equal(outcome.error.code, "schema");
});

test("the A/B judge maps the side verdict back to the policy, whichever side the coin chose", async () => {
  const first = await packet("tool-prune");
  const second = await packet("oldest-turn");
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const client = scripted(JSON.stringify(abJson({ verdict: "A_better" })));
    const outcome = await createAbJudge(client, { seed }).compare(first, second);
    assert.ok(outcome.ok);
    assert.equal(client.requests[0]!.purpose, "ab-judge");
    assert.equal(outcome.decision.preferred, outcome.packet.sides.A);
    assert.equal(outcome.decision.winner, outcome.packet.sides.A === "tool-prune" ? "first" : "second");
  }
  const bad = await createAbJudge(scripted(JSON.stringify(abJson({ confidence: 2 }))), { seed: 1, repairAttempts: 0 }).compare(first, second);
  assert.ok(!bad.ok && bad.error.issues[0]!.path === "confidence");
});
