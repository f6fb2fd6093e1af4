import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createLlmPlanner } from "../../lib/compaction/planner/llm-planner";
import { parsePlan } from "../../lib/compaction/planner/parse-plan";
import { planWithRules } from "../../lib/compaction/planner/rule-based/planner";
import { runPolicy } from "../../lib/compaction/policies/run-policy";
import { selfGcPolicy } from "../../lib/compaction/policies/self-gc/policy";
import { createLlmClient } from "../../server/llm/client";
import type { LlmConfig } from "../../server/llm/config";
import { LlmError } from "../../server/llm/errors";
import { promptOf, startLlmStub, type LlmStub, type RecordedRequest } from "../helpers/llm-stub-server";
import { body, fixture, type Step } from "../unit/compaction/planner/fixtures";
import { allTraceCuts, traceTokenizer } from "../unit/compaction/planner/trace-cuts";

/** The stub plays the planner: it folds every tool result the prompt tags as larger than 500 tokens. */
function plannerAnswer(request: RecordedRequest): string {
  const prompt = promptOf(request).messages.at(-1)?.content ?? "";
  const ids = [...prompt.matchAll(/<turn id="function:([a-z_]+:\d+)" tokens="(\d+)" \/>/g)].filter((m) => Number(m[2]) > 500).map((m) => m[1]);
  return `<above_conversation_summary>Stub planner folding bulky results.</above_conversation_summary>\n<gc_plan>\n  <fold kind="function" reason="stable_body: bulky">${ids.join(" ")}</fold>\n</gc_plan>`;
}

let stub: LlmStub;
let answer: (r: RecordedRequest) => string = plannerAnswer;
before(async () => {
  stub = await startLlmStub((r) => answer(r));
});
after(() => stub.close());

const config = (provider: LlmConfig["provider"]): LlmConfig => ({
  provider,
  baseUrl: provider === "openai" ? `${stub.baseUrl}/v1` : stub.baseUrl,
  apiKey: "sk-stub",
  model: `${provider}-planner`,
  timeoutMs: 2_000,
  maxRetries: 1,
  reasoning: "auto",
});

const steps: Step[] = [
  ["system", "You are an agent."],
  ["user", "Research the vendors."],
  ["call", "WebFetch", { url: "https://a.example.com" }, body("page a", 300)],
  ["assistant", "Done."],
  ["user", "Check the build."],
  ...["make", "make test", "git status", "ls", "ls dist"].map((command): Step => ["call", "Bash", { command }, "ok"]),
  ["user", "Now compare prices."],
  ["assistant", "Comparing."],
];

for (const provider of ["openai", "anthropic"] as const) {
  test(`${provider}: the LLM planner's plan round-trips through the stub, parses, rehearses and commits`, async () => {
    const { ctx } = fixture(steps);
    const before = stub.requests.length;
    const result = await runPolicy(selfGcPolicy, {
      session: ctx.session,
      index: ctx.index,
      cut: ctx.cut,
      window: ctx.window,
      tokenizer: ctx.tokenizer,
      params: { planner: "llm" },
      llm: createLlmClient(config(provider)),
    });
    assert.match(promptOf(stub.requests[before]!).system, /DECIDE IN THIS ORDER/);
    const details = result.details as { planner: { id: string; model: string; usage: object }; parseErrors: unknown[]; commit: { status: string } };
    assert.deepEqual(details.planner, {
      id: `llm:${provider}:${provider}-planner`,
      model: "stub-model",
      usage: { inputTokens: 11, outputTokens: 7, cachedInputTokens: 0 },
    });
    assert.deepEqual(details.parseErrors, []);
    assert.equal(details.commit.status, "committed");
    assert.deepEqual(
      result.actions.map((a) => `${a.action} ${a.target} ${a.rule}`),
      ["fold function:web_fetch:1 self-gc/stable_body"],
    );
    assert.equal(result.sidecars[0]?.payload, body("page a", 300));
  });
}

test("a real long run: an LLM answering with the rule-based plan yields the rule-based projection", async () => {
  const cut = (await allTraceCuts()).find((c) => c.path.includes("astropy__astropy-12907") && c.input.index.prefixTokens[c.cut]! > 15_000)!;
  answer = () => planWithRules(cut.input).xml;
  try {
    const input = {
      session: cut.analyzed.session,
      index: cut.analyzed.index,
      cut: cut.cut,
      window: Math.ceil(cut.input.index.prefixTokens[cut.cut]! / 0.9),
      tokenizer: traceTokenizer,
    };
    const viaLlm = await runPolicy(selfGcPolicy, { ...input, params: { planner: "llm", cacheAware: false }, llm: createLlmClient(config("openai")) });
    const embedded = await runPolicy(selfGcPolicy, { ...input, params: { cacheAware: false } });
    assert.deepEqual(viaLlm.view, embedded.view);
    assert.ok(viaLlm.pruneRate > 0.3);
  } finally {
    answer = plannerAnswer;
  }
});

test("the planner reports its latency with an injected clock and returns the model's raw text", async () => {
  const { input } = fixture(steps);
  let now = 1_000;
  const planner = createLlmPlanner(createLlmClient(config("anthropic")), { now: () => (now += 25) });
  const output = await planner.plan(input);
  assert.equal(output.latencyMs, 25);
  assert.ok(parsePlan(output.xml).plan);
});

test("an endpoint that keeps failing surfaces a typed error from the policy run", async () => {
  const { ctx } = fixture(steps);
  stub.script({ status: 500 }, { status: 500 });
  await assert.rejects(
    runPolicy(selfGcPolicy, {
      session: ctx.session,
      index: ctx.index,
      cut: ctx.cut,
      window: ctx.window,
      tokenizer: ctx.tokenizer,
      params: { planner: "llm" },
      llm: createLlmClient(config("openai"), { sleep: async () => {} }),
    }),
    (e: unknown) => e instanceof LlmError && e.code === "http_error" && e.status === 500 && e.details.attempts === 2,
  );
});
