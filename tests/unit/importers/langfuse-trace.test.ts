import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";

/** Langfuse trace exports (issue 15 item 5): the edges of replaying observations into one conversation. */
const roles = async (observations: unknown[]) => {
  const parsed = await parseTrace(sourceFromText("x.trace.json", JSON.stringify({ trace: { id: "t1", name: "run" }, observations }, null, 2)));
  assert.equal(parsed.format, "langfuse_trace");
  return {
    parsed,
    summary: parsed.sessions[0]!.messages.map(
      (m) =>
        `${m.role}: ${m.parts.map((p) => (p.type === "text" ? p.text : p.type === "tool_call" ? `call ${p.id}` : p.type === "tool_result" ? `result ${p.callId} ${p.content}` : p.type)).join(" | ")}`,
    ),
  };
};
const at = (s: number) => `2025-01-01T00:00:0${s}.000Z`;

describe("langfuse_trace", () => {
  it("a later generation adds only what is new in its input (Responses items); a TOOL observation pairs by name", async () => {
    const { summary } = await roles([
      {
        type: "GENERATION",
        startTime: at(1),
        model: "gpt-4.1",
        input: JSON.stringify([{ role: "user", content: "weather?" }]),
        output: JSON.stringify({ object: "response", output: [{ type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}" }] }),
      },
      { type: "TOOL", name: "get_weather", startTime: at(2), input: "{}", output: "sunny" },
      { type: "SPAN", name: "noise", startTime: at(3), input: JSON.stringify([{ role: "user", content: "weather?" }]), output: "x" },
      {
        type: "GENERATION",
        startTime: at(4),
        input: JSON.stringify([
          { role: "user", content: "weather?" },
          { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}" },
          { type: "function_call_output", call_id: "c1", output: "sunny" },
          { role: "user", content: "and tomorrow?" },
        ]),
        output: JSON.stringify({ role: "assistant", content: "rain" }),
      },
    ]);
    assert.deepEqual(summary, ["user: weather?", "assistant: call c1", "tool: result c1 sunny", "user: and tomorrow?", "assistant: rain"]);
  });

  it("Anthropic blocks, placeholder inputs dropped, an OTel tool span answers by gen_ai.tool.call.id", async () => {
    const { summary } = await roles([
      {
        type: "GENERATION",
        startTime: at(1),
        input: JSON.stringify({ role: "user", content: "go" }),
        output: JSON.stringify({
          role: "assistant",
          content: [
            { type: "tool_use", id: "a", name: "t", input: {} },
            { type: "tool_use", id: "b", name: "t", input: {} },
          ],
        }),
      },
      {
        type: "SPAN",
        name: "tool.t",
        startTime: at(2),
        output: "second",
        metadata: JSON.stringify({ attributes: { "gen_ai.tool.name": "t", "gen_ai.tool.call.id": "b" } }),
      },
      {
        type: "GENERATION",
        startTime: at(3),
        input: JSON.stringify({ content: "role" }),
        output: JSON.stringify({ role: "assistant", content: [{ type: "text", text: "done" }] }),
      },
    ]);
    assert.deepEqual(summary, ["user: go", "assistant: call a | call b", "tool: result b second", "assistant: done"]);
  });

  it("a tool observation with no call is kept as an orphan with a warning", async () => {
    const { parsed, summary } = await roles([
      { type: "TOOL", name: "lonely", startTime: at(1), output: JSON.stringify({ content: [{ type: "text", text: "out" }] }) },
    ]);
    assert.equal(summary.length, 1);
    assert.match(parsed.issues[0]!.message, /answers no earlier tool call/);
  });
});
