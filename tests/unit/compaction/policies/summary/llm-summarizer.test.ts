import assert from "node:assert/strict";
import { test } from "node:test";
import type { LlmClient, LlmRequest } from "../../../../../lib/llm/types";
import { fixedIntervalSummaryPolicy } from "../../../../../lib/compaction/policies/summary/fixed-interval-summary";
import { createLlmSummarizer, renderTranscript } from "../../../../../lib/compaction/summarizer/llm-summarizer";
import type { SummaryRequest } from "../../../../../lib/compaction/summarizer/types";
import { run, session, text, tokenizer } from "./fixtures";

function fakeClient(reply: string): LlmClient & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    id: "fake",
    requests,
    complete(request) {
      requests.push(request);
      return Promise.resolve({ text: reply, model: "fake-model" });
    },
  };
}

const history = session([
  ["user", "Fix the failing test in src/app.ts"],
  ["call", "c1", "Bash", '{"command":"npm test"}'],
  ["result", "c1", "FAIL src/app.test.ts", { isError: true, name: "Bash" }],
  ["assistant", "The import path is wrong."],
]);

function request(overrides: Partial<SummaryRequest> = {}): SummaryRequest {
  return { messages: history.messages, maxTokens: 500, countTokens: (t) => tokenizer.count(t), ...overrides };
}

test("asks the client for a handoff summary with purpose summarizer, maxTokens and our own prompt", async () => {
  const client = fakeClient("## Goal\n- fix the test");
  const summarizer = createLlmSummarizer(client);
  const out = await summarizer.summarize(request({ instructions: "Keep exact paths.", previousSummary: "Earlier: repo cloned." }));
  assert.equal(out, "## Goal\n- fix the test");
  assert.equal(summarizer.id, "llm:fake");
  const [call] = client.requests;
  assert.equal(call!.purpose, "summarizer");
  assert.equal(call!.maxTokens, 500);
  assert.equal(call!.temperature, 0);
  const [system, user] = call!.messages;
  assert.equal(system!.role, "system");
  for (const section of ["## Goal", "## Progress", "## Decisions", "## Constraints", "## Next steps", "## Identifiers"])
    assert.ok(system!.content.includes(section), section);
  assert.ok(system!.content.includes("Stay within 500 tokens"));
  assert.ok(user!.content.includes("[user]: Fix the failing test in src/app.ts"));
  assert.ok(user!.content.includes('[tool call Bash c1]: {"command":"npm test"}'));
  assert.ok(user!.content.includes("[tool result Bash c1 (error)]: FAIL src/app.test.ts"));
  assert.ok(user!.content.includes("<previous_summary>\nEarlier: repo cloned.\n</previous_summary>"));
  assert.ok(user!.content.includes("Notes for this compaction: Keep exact paths."));
});

test("the answer is capped to maxTokens like every summary", async () => {
  const summarizer = createLlmSummarizer(fakeClient(Array.from({ length: 400 }, (_, i) => `line ${i}`).join("\n")));
  const out = await summarizer.summarize(request({ maxTokens: 100 }));
  assert.ok(tokenizer.count(out) <= 100);
  assert.ok(out.endsWith("[… summary cut to its token cap …]"));
});

test("an empty answer stays empty (the policy then keeps the context as is)", async () => {
  assert.equal(await createLlmSummarizer(fakeClient("  \n")).summarize(request()), "");
  const result = await run(
    fixedIntervalSummaryPolicy,
    session([
      ["user", text(100)],
      ["assistant", text(100)],
      ["user", "next"],
      ["assistant", "ok"],
    ]),
    {
      summarizer: createLlmSummarizer(fakeClient("")),
    },
  );
  assert.equal(result.summary, undefined);
  assert.ok(result.log.at(-1)!.includes("returned an empty summary"));
});

test("the transcript clips long parts and keeps the newest entries when it is too long", () => {
  const long = session([
    ["user", text(1_000, "a")],
    ["assistant", "b".repeat(50)],
    ["assistant", "c".repeat(50)],
  ]);
  const clipped = renderTranscript(long.messages, { maxPartChars: 100, maxChars: 10_000 });
  assert.ok(clipped.includes("[… 3900 characters cut …]"));
  const newest = renderTranscript(long.messages, { maxPartChars: 10_000, maxChars: 150 });
  assert.ok(newest.startsWith("[… 1 earlier entry (4009 characters) omitted …]"), newest);
  assert.ok(newest.endsWith(`[assistant]: ${"c".repeat(50)}`));
});

test("plugs into a policy: the summary in the view is the model's", async () => {
  const client = fakeClient("## Goal\n- ship it");
  const s = session([
    ["user", text(300)],
    ["assistant", text(300)],
    ["user", "next"],
    ["assistant", "ok"],
  ]);
  const result = await run(fixedIntervalSummaryPolicy, s, { summarizer: createLlmSummarizer(client) });
  assert.equal(result.summary, "## Goal\n- ship it");
  assert.equal(result.details?.summarizer, "llm:fake");
  assert.equal(client.requests[0]!.maxTokens, 2_000, "maxTokens = the summary cap");
});
