import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { calibrateNoImpact, type CalibrationCase } from "../../lib/evaluation/llm-judge/ab-calibrate";
import { AB_JUDGE_CONTRACT, buildJudgePacket, createAbJudge, createLlmJudge, JUDGE_CONTRACT } from "../../lib/evaluation/llm-judge";
import { JudgeVerdictSchema } from "../../lib/evaluation/judge/verdict-schema";
import { createLlmClient } from "../../server/llm/client";
import type { LlmConfig } from "../../server/llm/config";
import { LlmError } from "../../server/llm/errors";
import { promptOf, startLlmStub, type LlmStub, type RecordedRequest } from "../helpers/llm-stub-server";
import { abJson, resultFor, verdictJson } from "../unit/evaluation/llm-judge/fixtures";

/**
 * The stub plays both judges. Single judge: fails the cut when the retained prefix lost the price
 * the future quotes ("12.50"), blaming the first object whose diff removed it. A/B judge: prefers
 * the candidate whose retained prefix still shows the price.
 */
function judgeAnswer(request: RecordedRequest): string {
  const { system, messages } = promptOf(request);
  const packet = messages.at(-1)?.content ?? "";
  if (system.startsWith("You compare two")) {
    const a = section(packet, "--- A: RETAINED PREFIX", "--- A: CONTEXT_PRUNE_DIFF");
    const b = section(packet, "--- B: RETAINED PREFIX", "--- B: CONTEXT_PRUNE_DIFF");
    const verdict = a.includes("12.50") === b.includes("12.50") ? "tie" : a.includes("12.50") ? "A_better" : "B_better";
    return JSON.stringify(abJson({ verdict }));
  }
  const prefix = section(packet, "=== RETAINED PREFIX", "=== CONTEXT_PRUNE_DIFF");
  if (prefix.includes("12.50")) return JSON.stringify(verdictJson({ valid: true, failure_culprit: null, overall_score: 5 }));
  const culprit = /@@ (function:[a-z_]+:\d+) ·[^\n]*\n(?:- [^\n]*\n)*?- Plan Pro costs 12\.50/.exec(
    section(packet, "=== CONTEXT_PRUNE_DIFF", "=== REAL FUTURE"),
  )?.[1];
  return "```json\n" + JSON.stringify(verdictJson({ failure_culprit: culprit ? { target_id: culprit } : null })) + "\n```";
}

function section(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  return from < 0 ? "" : text.slice(from, text.indexOf(end, from) >>> 0);
}

let stub: LlmStub;
before(async () => {
  stub = await startLlmStub(judgeAnswer);
});
after(() => stub.close());

const config = (provider: LlmConfig["provider"]): LlmConfig => ({
  provider,
  baseUrl: provider === "openai" ? `${stub.baseUrl}/v1` : stub.baseUrl,
  apiKey: "sk-stub",
  model: `${provider}-judge`,
  timeoutMs: 2_000,
  maxRetries: 1,
  reasoning: "auto",
});

async function packetFor(policy: string) {
  const { session, index, result } = await resultFor(policy);
  return buildJudgePacket({ session, index, result }, { maxChars: 30_000 });
}

for (const provider of ["openai", "anthropic"] as const) {
  test(`${provider}: the judge's packet and contract round-trip through the stub and the verdict parses`, async () => {
    const judge = createLlmJudge(createLlmClient(config(provider)));
    const before = stub.requests.length;
    const pruned = await judge.judge(await packetFor("tool-prune"));
    assert.equal(promptOf(stub.requests[before]!).system, JUDGE_CONTRACT);
    assert.equal((stub.requests[before]!.body as { temperature?: number }).temperature, 0);
    assert.equal(judge.id, `llm:${provider}:${provider}-judge`);
    assert.ok(pruned.ok, JSON.stringify(!pruned.ok && pruned.error));
    assert.equal(pruned.verdict.noImpact, false);
    assert.equal(pruned.verdict.failure_culprit?.target_id, "function:web_fetch:1");
    assert.ok(JudgeVerdictSchema.safeParse(pruned.verdict).success);
    assert.deepEqual(
      pruned.attempts.map((a) => [a.model, a.inputTokens, a.outputTokens]),
      [["stub-model", 11, 7]],
    );
    const kept = await judge.judge(await packetFor("none"));
    assert.ok(kept.ok && kept.verdict.noImpact && kept.verdict.failure_culprit === null);
  });

  test(`${provider}: the A/B judge's blinded pair round-trips and the preference maps back to the policy`, async () => {
    const ab = createAbJudge(createLlmClient(config(provider)), { seed: 11 });
    const before = stub.requests.length;
    const outcome = await ab.compare(await packetFor("tool-prune"), await packetFor("none"));
    assert.equal(promptOf(stub.requests[before]!).system, AB_JUDGE_CONTRACT);
    assert.ok(!JSON.stringify(stub.requests[before]!.body).includes("tool-prune"), "the policy name never reaches the model");
    assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.error));
    assert.equal(outcome.decision.preferred, "none");
    assert.equal(outcome.decision.winner, "second");
    assert.equal(outcome.decision.outcome, "B_better");
  });
}

test("adjudications from the stub feed the calibration: A/B wins replace discordant single-judge labels", async () => {
  const client = createLlmClient(config("openai"));
  const judge = createLlmJudge(client);
  const ab = createAbJudge(client, { seed: 5 });
  const none = await packetFor("none");
  const pruned = await packetFor("tool-prune");
  const a = await judge.judge(none);
  const b = await judge.judge(pruned);
  assert.ok(a.ok && b.ok);
  const decision = await ab.compare(none, pruned);
  assert.ok(decision.ok);
  const cases: CalibrationCase[] = [
    { a: a.verdict.noImpact, b: b.verdict.noImpact, ab: decision.decision.outcome },
    { a: true, b: true },
  ];
  const calibrated = calibrateNoImpact(cases);
  assert.deepEqual([calibrated.calibrated.a.successes, calibrated.calibrated.b.successes], [2, 1]);
});

test("an unparseable answer is a typed parse error; a failing endpoint is the client's typed error", async () => {
  stub.script({ text: "Looks fine." }, { text: "Still fine, I promise." });
  const outcome = await createLlmJudge(createLlmClient(config("openai"))).judge(await packetFor("tool-prune"));
  assert.ok(!outcome.ok && outcome.error.code === "no_json");
  assert.deepEqual(
    outcome.attempts.map((a) => a.raw),
    ["Looks fine.", "Still fine, I promise."],
    "one repair retry, then the parse error stands",
  );
  stub.script({ status: 500 }, { status: 500 });
  await assert.rejects(
    createLlmJudge(createLlmClient(config("openai"), { sleep: async () => {} })).judge(await packetFor("tool-prune")),
    (e: unknown) => e instanceof LlmError && e.status === 500,
  );
});
