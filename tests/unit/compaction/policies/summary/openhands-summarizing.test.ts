import assert from "node:assert/strict";
import { test } from "node:test";
import { openhandsSummarizingPolicy as policy } from "../../../../../lib/compaction/policies/summary/openhands-summarizing";
import type { Spec } from "./fixtures";
import { fires, origins, recordingSummarizer, run, session, text } from "./fixtures";

// 115 events: system, a request, 55 call/result pairs (calls at even indexes), a note, a new request, a reply.
const steps: Spec[] = [];
for (let i = 1; i <= 55; i++) steps.push(["call", `c${i}`, "Bash", `{"n":${i}}`], ["result", `c${i}`, i === 1 ? text(3_000) : "ok"]);
const s = session([["system", "sys"], ["user", text(20)], ...steps, ["assistant", "noted"], ["user", text(10)], ["assistant", text(10)]]);

test("fires when the view holds more than max_size = 100 events", () => {
  assert.equal(fires(policy, s, 1_000_000, 100), false);
  assert.equal(fires(policy, s, 1_000_000, 101), true);
});

test("keeps keep_first = 1 and the newest max_size/2 − keep_first − 1 = 48 events; the summary sits at offset keep_first", async () => {
  const result = await run(policy, s);
  // 115 − 48 = 67 is a tool result: the tail start moves back to its call (66).
  assert.ok(result.log.some((l) => l.includes("moved back from event 67 to 66")));
  assert.deepEqual(origins(result), [0, "summary", ...Array.from({ length: 49 }, (_, i) => 66 + i)]);
  assert.equal(result.tailStart, 66);
  assert.ok(result.actions.every((a) => a.rule === "openhands-summarizing/forgotten-events"));
});

test("server settings keep_first 4, max_size 120: the head is kept and the summary follows it", async () => {
  const result = await run(policy, s, { params: { keepFirst: 4, maxSize: 120 } });
  assert.deepEqual(origins(result).slice(0, 6), [0, 1, 2, 3, "summary", 60]);
});

test("each forgotten event is middle-truncated to max_event_length = 10,000 chars for the summarizer", async () => {
  const summarizer = recordingSummarizer();
  await run(policy, s, { summarizer });
  const first = summarizer.requests[0]!.messages.find((m) => m.parts[0]!.type === "tool_result")!.parts[0]!;
  assert.ok(first.type === "tool_result" && first.content.length < 10_100 && first.content.includes("truncated"));
});

test("a view within max_size/2 has nothing to forget", async () => {
  const short = session([
    ["system", "sys"],
    ["user", "hi"],
    ["assistant", "hello"],
  ]);
  const result = await run(policy, short);
  assert.equal(result.summary, undefined);
  assert.ok(result.log.at(-1)!.includes("no events to forget"));
});
