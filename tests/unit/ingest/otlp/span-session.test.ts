import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OtlpTraceRequestSchema, describeRequestProblems } from "../../../../lib/ingest/otlp/otlp-request";
import { compareSessionOrder, groupKeyOf, receivedSpans, sessionKeyOfTrace } from "../../../../lib/ingest/otlp/received-span";
import { buildOtelSession } from "../../../../lib/trace/importers/otel-genai";
import { agentLoopSpans, otlpRequest, otlpSpan } from "../../../helpers/otlp-spans";

/** As the server does: the records of the received spans, in session order. */
const recordsOf = (spans: unknown[]) =>
  receivedSpans(OtlpTraceRequestSchema.parse(otlpRequest(spans)))
    .sort(compareSessionOrder)
    .map((r) => r.record);
const build = (records: unknown[]) => buildOtelSession(records, { id: "conv-1", file: "otlp:conv-1" });
const shape = (records: unknown[]) => build(records).session.messages.map((m) => [m.role, m.parts.map((p) => p.type).join("+")].join(":"));

describe("OTLP spans to one session", () => {
  it("one agent loop becomes user, tool call, tool result, answer", () => {
    const { session, issues } = build(recordsOf(agentLoopSpans()));
    assert.deepEqual(
      issues.filter((i) => i.severity === "error"),
      [],
    );
    assert.deepEqual(shape(recordsOf(agentLoopSpans())), ["user:text", "assistant:tool_call", "tool:tool_result", "assistant:text"]);
    assert.equal(session.id, "conv-1");
  });

  it("spans delivered in reverse or shuffled order give the same session", () => {
    const spans = agentLoopSpans();
    const expected = JSON.stringify(build(recordsOf(spans)).session);
    assert.equal(JSON.stringify(build(recordsOf([...spans].reverse())).session), expected);
    assert.equal(JSON.stringify(build(recordsOf([spans[2], spans[0], spans[3], spans[1]])).session), expected);
  });

  it("spans with equal start times are ordered by trace and span id, not arrival", () => {
    const same = agentLoopSpans().map((span) => ({ ...span, startTimeUnixNano: "1750000000000000000" }));
    assert.equal(JSON.stringify(build(recordsOf([...same].reverse())).session), JSON.stringify(build(recordsOf(same)).session));
  });

  it("spans of two traces with one conversation id make one session", () => {
    const first = agentLoopSpans({ traceId: "1".repeat(32), idPrefix: "b1" });
    const history = JSON.parse(String(first[3]!.attributes.find((a) => a.key === "gen_ai.input.messages")!.value.stringValue)).concat(
      JSON.parse(String(first[3]!.attributes.find((a) => a.key === "gen_ai.output.messages")!.value.stringValue)),
    );
    const second = agentLoopSpans({ traceId: "2".repeat(32), idPrefix: "b2", question: "And in Rome?", history }).map((span) => ({
      ...span,
      startTimeUnixNano: String(BigInt(span.startTimeUnixNano) + 100_000_000_000n),
    }));
    assert.equal(build(recordsOf([...second, ...first])).session.messages.length, 8);
  });
});

describe("grouping keys", () => {
  it("the conversation id wins over session.id, and either over the trace", () => {
    assert.equal(groupKeyOf({ "gen_ai.conversation.id": "c", "session.id": "s" }), "conversation:c");
    assert.equal(groupKeyOf({}, { "session.id": "s" }), "session:s");
    assert.equal(groupKeyOf({}), null);
  });

  it("a trace takes the smallest key its spans name, whatever order they came in", () => {
    assert.equal(sessionKeyOfTrace("t", [null, "session:s", "conversation:c"]), "conversation:c");
    assert.equal(sessionKeyOfTrace("t", ["conversation:c", null, "session:s"]), "conversation:c");
    assert.equal(sessionKeyOfTrace("t", [null, null]), "trace:t");
  });

  it("a span with no GenAI attribute is marked so the receiver can reject it", () => {
    const spans = receivedSpans(
      OtlpTraceRequestSchema.parse(
        otlpRequest([otlpSpan("3".repeat(32), "c".repeat(16), 0, [{ key: "http.method", value: { stringValue: "GET" } }]), ...agentLoopSpans()]),
      ),
    );
    assert.deepEqual(
      spans.map((s) => s.hasGenAi),
      [false, true, true, true, true],
    );
  });
});

describe("malformed OTLP JSON", () => {
  it("names the path of every bad id", () => {
    const bad = otlpRequest([
      { ...agentLoopSpans()[0], spanId: "xyz" },
      { ...agentLoopSpans()[1], traceId: 7 },
    ]);
    const parsed = OtlpTraceRequestSchema.safeParse(bad);
    assert.equal(parsed.success, false);
    const problems = describeRequestProblems(parsed.error!);
    assert.ok(
      problems.some((p) => p.startsWith("resourceSpans[0].scopeSpans[0].spans[0].spanId: ")),
      problems.join("\n"),
    );
    assert.ok(
      problems.some((p) => p.startsWith("resourceSpans[0].scopeSpans[0].spans[1].traceId: ")),
      problems.join("\n"),
    );
  });
});
