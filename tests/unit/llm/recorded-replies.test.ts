import assert from "node:assert/strict";
import { test } from "node:test";
import { LlmRecordingsSchema, recordingLlmClient, replayingLlmClient, ReplayMismatchError } from "../../../lib/llm/recorded-replies";
import type { LlmClient, LlmRequest } from "../../../lib/llm/types";

/** A client answering "answer N" to its Nth call, routing the planner to its own model id. */
function countingClient(): LlmClient & { calls: number } {
  const client = {
    id: "stub:default",
    idFor: (purpose: string) => (purpose === "planner" ? "stub:planner" : "stub:default"),
    calls: 0,
    complete: async (request: LlmRequest) => {
      client.calls++;
      return { text: `answer ${client.calls} (${request.purpose})`, model: "m", inputTokens: 10 * client.calls, outputTokens: 1 };
    },
  };
  return client;
}

const ask = (purpose: LlmRequest["purpose"]): LlmRequest => ({ messages: [{ role: "user", content: "plan" }], maxTokens: 10, purpose });

test("a recording keeps every answer in order, under the id of the model that served the purpose", async () => {
  const inner = countingClient();
  const { client, recording } = recordingLlmClient(inner, "planner");
  assert.equal(client.idFor?.("planner"), "stub:planner");
  const answers = [await client.complete(ask("planner")), await client.complete(ask("planner")), await client.complete(ask("summarizer"))];
  assert.equal(inner.calls, 3);
  assert.equal(recording.client, "stub:planner");
  assert.deepEqual(
    recording.replies.map((r) => [r.purpose, r.response.text]),
    [
      ["planner", "answer 1 (planner)"],
      ["planner", "answer 2 (planner)"],
      ["summarizer", "answer 3 (summarizer)"],
    ],
  );
  // Stored as JSON, read back through the stored shape's schema and replayed: the same answers, usage included, and no model is asked.
  const stored = LlmRecordingsSchema.parse(JSON.parse(JSON.stringify({ "self-gc": recording })));
  const replay = replayingLlmClient(stored["self-gc"]!);
  assert.equal(replay.id, "stub:planner");
  assert.deepEqual([await replay.complete(ask("planner")), await replay.complete(ask("planner")), await replay.complete(ask("summarizer"))], answers);
  assert.equal(inner.calls, 3);
});

test("a stored recording of the wrong shape is refused, naming the field", () => {
  const bad = LlmRecordingsSchema.safeParse({ "self-gc": { client: "x", replies: [{ purpose: "planner", response: { text: 5, model: "m" } }] } });
  assert.equal(bad.success, false);
  assert.equal(bad.error?.issues[0]?.path.join("."), "self-gc.replies.0.response.text");
});

test("a replay that is asked more often, or for another purpose, than the recording says so instead of answering", async () => {
  const { client, recording } = recordingLlmClient(countingClient(), "planner");
  await client.complete(ask("planner"));
  const tooMany = replayingLlmClient(recording);
  await tooMany.complete(ask("planner"));
  await assert.rejects(
    tooMany.complete(ask("planner")),
    (e: unknown) => e instanceof ReplayMismatchError && /asked the model 2 times; the run recorded 1 answers/.test(e.message),
  );
  const otherPurpose = replayingLlmClient(recording);
  await assert.rejects(
    otherPurpose.complete(ask("judge")),
    (e: unknown) => e instanceof ReplayMismatchError && /was for the planner, the walk asked for the judge/.test(e.message),
  );
});
