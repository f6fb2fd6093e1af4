import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reviseLabel, retractLabel, toSpanAnnotations } from "../../../lib/review";
import { otlpAgentSpanId, otlpChatSpanId } from "../../../lib/trace/export-otlp-ids";
import type { Message } from "../../../lib/trace/model";
import { ab, confirm, cutReview, failure } from "./labels";

/**
 * Review labels as Phoenix / OpenInference span annotations (issue 15, item 6): one per current
 * label thread, on the chat span right after the label's cut, the verdict in `result`, everything
 * else in `metadata`.
 */
const source = { file: "t", line: 1 };
const message = (index: number, role: Message["role"]): Message => ({ index, role, parts: [{ type: "text", text: `m${index}` }], source });
/** Assistant messages at 3 and 11; the labels' cut is 10 (tests/unit/review/labels.ts). */
const session = { messages: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => message(i, i === 3 || i === 11 ? "assistant" : "user")) };
const clock = { now: () => Date.UTC(2026, 10, 23, 11, 0) };

describe("span annotations from review labels", () => {
  it("each kind: its verdict as the label, A/B confidence as the score, the rest as metadata", () => {
    const { data } = toSpanAnnotations(
      [confirm("d1", "ann", "src/app.ts"), cutReview("c1", "ann"), failure("f1", "bob", { comment: "the id was folded" }), ab("a1", "cy")],
      session,
      "seed",
    );
    assert.ok(data.every((a) => a.span_id === otlpChatSpanId("seed", 11) && a.annotator_kind === "HUMAN"));
    assert.deepEqual(
      data.map((a) => [a.name, a.result, a.identifier]),
      [
        ["ab", { label: "A_better", score: 0.8, explanation: "A keeps the job id." }, "a1"],
        ["cut_review", { label: "reviewed" }, "c1"],
        ["dependency", { label: "confirm", explanation: "src/app.ts" }, "d1"],
        ["failure_category", { label: "live_state", explanation: "the id was folded" }, "f1"],
      ],
    );
    assert.deepEqual(data[0]!.metadata.sides, { A: "self-gc", B: "oldest-turn", swapped: false });
    assert.deepEqual(
      [data[3]!.metadata.policy, data[3]!.metadata.culpritId, data[3]!.metadata.reviewer, data[3]!.metadata.cut],
      ["tool-prune", "function:exec:3", "bob", 10],
    );
  });

  it("only the latest version of a thread, and nothing of a retracted thread", () => {
    const first = failure("f1", "bob");
    const revised = reviseLabel(first, { category: "evidence_detail" }, clock);
    const gone = failure("f2", "bob");
    const { data } = toSpanAnnotations([first, revised, gone, retractLabel(gone, clock)], session, "seed");
    assert.deepEqual(
      data.map((a) => [a.identifier, a.result.label, a.metadata.version]),
      [["f1", "evidence_detail", 2]],
    );
  });

  it("a cut after the last model call annotates the session's root span", () => {
    const late = failure("f1", "bob", { ref: { sessionId: "s", cut: 12 } });
    assert.equal(toSpanAnnotations([late], session, "seed").data[0]!.span_id, otlpAgentSpanId("seed"));
  });
});
