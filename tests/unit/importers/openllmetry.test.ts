import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";

/**
 * OpenLLMetry spans (issue 15 item 5). No real export of the flat `gen_ai.prompt.N.*` form was
 * available: the fixture follows the published semantic conventions (OTLP JSON, two chat spans, the
 * second repeating the history plus the tool result). The nested AgentOps form is flattened.
 */
const FIXTURE = join(__dirname, "../../fixtures/openllmetry/flat-chat-tool-call.json");

describe("openllmetry_spans", () => {
  it("the flat form from the conventions: detected, history read once, call and result paired, usage kept", async () => {
    const parsed = await parseTrace(sourceFromText("flat-chat-tool-call.json", readFileSync(FIXTURE, "utf8")));
    assert.equal(parsed.format, "openllmetry_spans");
    assert.deepEqual(parsed.issues, []);
    const messages = parsed.sessions[0]!.messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ["system", "user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(messages[2]!.parts[0], { type: "tool_call", id: "call_w1", name: "get_weather", arguments: '{"city": "Paris"}' });
    assert.equal(messages[3]!.parts[0]!.type === "tool_result" && messages[3]!.parts[0]!.callId, "call_w1");
    assert.deepEqual(messages[4]!.usage, { inputTokens: 71, outputTokens: 11 });
    assert.deepEqual(parsed.sessions[0]!.models, ["gpt-4o-mini"]);
  });

  it('nested span_attributes ({gen_ai: {completion: [{"0": {…}}]}}) read as the flat keys', async () => {
    const doc = {
      trace_id: "t",
      spans: [
        {
          span_id: "a",
          parent_span_id: "",
          span_name: "agents.response",
          span_attributes: {
            gen_ai: {
              prompt: { "0": { role: "user", content: "q" } },
              completion: [{ "0": { role: "assistant", content: "a" } }],
              request: { model: "gpt-4o" },
            },
          },
        },
      ],
    };
    const parsed = await parseTrace(sourceFromText("api_output.json", JSON.stringify(doc, null, 2)));
    assert.equal(parsed.format, "openllmetry_spans");
    assert.deepEqual(
      parsed.sessions[0]!.messages.map((m) => [m.role, m.parts[0]!.type === "text" && m.parts[0]!.text]),
      [
        ["user", "q"],
        ["assistant", "a"],
      ],
    );
  });
});
