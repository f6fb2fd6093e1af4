import assert from "node:assert/strict";
import { test } from "node:test";
import type { LlmClient, LlmRequest } from "../../../lib/llm/types";
import { withSignal } from "../../../server/llm/with-signal";

function recording(): LlmClient & { seen: LlmRequest[] } {
  const seen: LlmRequest[] = [];
  return { id: "fake:m", idFor: () => "fake:judge", seen, complete: async (r) => (seen.push(r), { text: "ok", model: "m" }) };
}

const ask = (client: LlmClient, signal?: AbortSignal) =>
  client.complete({ messages: [{ role: "user", content: "hi" }], maxTokens: 8, purpose: "planner", ...(signal ? { signal } : {}) });

test("every request carries the work's signal; aborting the work aborts it; ids pass through", async () => {
  const inner = recording();
  const work = new AbortController();
  const client = withSignal(inner, work.signal);
  assert.deepEqual([client.id, client.idFor?.("judge")], ["fake:m", "fake:judge"]);
  await ask(client);
  const signal = inner.seen[0]!.signal!;
  assert.equal(signal.aborted, false);
  work.abort();
  assert.equal(signal.aborted, true);
});

test("a request's own signal is kept: either one aborting cancels the call", async () => {
  const inner = recording();
  const work = new AbortController();
  const own = new AbortController();
  await ask(withSignal(inner, work.signal), own.signal);
  const signal = inner.seen[0]!.signal!;
  own.abort();
  assert.equal(signal.aborted, true);
  assert.equal(work.signal.aborted, false, "the request's cancellation does not stop the work");
});
