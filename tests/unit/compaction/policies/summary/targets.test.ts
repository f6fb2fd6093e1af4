import assert from "node:assert/strict";
import { test } from "node:test";
import type { TargetReport } from "../../../../../lib/compaction/policies/shared/target";
import { fixedIntervalSummaryPolicy } from "../../../../../lib/compaction/policies/summary/fixed-interval-summary";
import { recentTokenFractionPolicy } from "../../../../../lib/compaction/policies/summary/recent-token-fraction";
import { recentTurnsPolicy } from "../../../../../lib/compaction/policies/summary/recent-turns";
import type { Summarizer, SummaryRequest } from "../../../../../lib/compaction/summarizer/types";
import { origins, recordingSummarizer, run, session, text, type Spec } from "./fixtures";

/** Ten turns of 200 tokens (chars4: a request of 50, an answer of 144, framing 6): 2,000 tokens after a 13-token system prompt. */
const turns: Spec[] = [["system", text(10)]];
for (let t = 0; t < 10; t++) turns.push(["user", text(47, String.fromCharCode(97 + t))], ["assistant", text(147, String.fromCharCode(65 + t))]);
const s = session(turns);
const report = (r: { details?: Record<string, unknown> }) => r.details!.target as TargetReport;

/** A summarizer whose summary has the size it is told, or `size` tokens when that is smaller. */
function sized(size: number): Summarizer & { requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return { id: "sized", requests, summarize: (r) => (requests.push(r), "S".repeat(4 * Math.min(size, r.maxTokens))) };
}

test("a summary policy keeps the largest tail that fits with a full-cap summary, and refits once around a shorter summary", async () => {
  const summarizer = sized(100);
  const r = await run(recentTokenFractionPolicy, s, { targetTokens: 1_000, summaryCap: 500, summarizer });
  // First fit reserves the 500-token cap; the summary came out at 100 tokens, so the second fit
  // reserves 100 and keeps more of the tail — under a 100-token cap, so the view cannot overshoot.
  assert.deepEqual(
    summarizer.requests.map((q) => q.maxTokens),
    [500, 100],
  );
  assert.ok(r.tokensAfter <= 1_000 && report(r).reached, `${r.tokensAfter}`);
  assert.ok(r.tokensAfter > 1_000 - 200, "within one turn of the target");
  const filling = sized(10_000);
  await run(recentTokenFractionPolicy, s, { targetTokens: 1_000, summaryCap: 500, summarizer: filling });
  assert.equal(filling.requests.length, 1, "a summarizer that fills its cap is asked once");
});

test("when the kept part leaves no room for a full-cap summary, the summary gets what is left; below that the policy says why", async () => {
  const r = await run(recentTurnsPolicy, s, { targetTokens: 400, summaryCap: 2_000, summarizer: sized(10_000) });
  // The latest turn (200) and the system prompt (13) stay; the summary takes the rest of 400.
  assert.deepEqual(
    origins(r).filter((o) => o !== "summary"),
    [0, 19, 20],
  );
  assert.ok(r.tokensAfter <= 400 && report(r).reached);
  const tight = await run(recentTurnsPolicy, s, { targetTokens: 150, summaryCap: 2_000, summarizer: recordingSummarizer() });
  assert.equal(report(tight).reached, false);
  assert.match(report(tight).why!, /protected latest turn leave no room/);
});

test("recent-turns keeps as many newest turns as the target allows (more than its own 2 when it is large)", async () => {
  const r = await run(recentTurnsPolicy, s, { targetTokens: 1_500, summaryCap: 100, summarizer: sized(100) });
  assert.equal(report(r).knob, "turns = 6");
  assert.ok(r.tokensAfter <= 1_500);
});

test("fixed-interval summary under a target resets whenever its context reaches the target, replayed from the start", async () => {
  const r = await run(fixedIntervalSummaryPolicy, s, { targetTokens: 700, summaryCap: 50, summarizer: sized(50) });
  assert.ok(r.tokensAfter <= 700 && report(r).reached);
  assert.match(report(r).knob, /^trigger threshold = 700 tokens \(\d+ resets\)$/);
  // The view is the summary and everything since the last reset: whole turns, ending with the latest.
  const kept = origins(r).filter((o): o is number => typeof o === "number" && o > 0);
  assert.ok(kept.length >= 2 && kept.at(-1) === 20 && kept[0]! % 2 === 1, `${kept}`);
});
