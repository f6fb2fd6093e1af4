import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { strToU8, zipSync } from "fflate";
import { ArchiveError } from "../../../lib/trace/archive/archive-limits";
import { inspectLogFromEvalZip } from "../../../lib/trace/archive/inspect-eval-archive";
import { parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromText } from "../../../lib/trace/source";

/** Inspect AI eval logs (issue 15 item 5): message mapping, attachments, and the `.eval` zip expansion and its limits. */
const LIMITS = { maxExpandedBytes: 1 << 20, maxRatio: 200, ratioFloorBytes: 1 << 20 };
const header = { version: 2, status: "success", eval: { task: "t", task_id: "x", run_id: "r", model: "openai/gpt-4o" } };
const sample = (id: number) => ({
  id,
  epoch: 1,
  attachments: { abc123: "a long system prompt" },
  messages: [
    { role: "system", content: "attachment://abc123" },
    {
      role: "assistant",
      content: [
        { type: "reasoning", reasoning: "think" },
        { type: "text", text: "calling" },
      ],
      tool_calls: [{ id: "c1", function: "bash", arguments: { cmd: "ls" } }],
    },
    { role: "tool", tool_call_id: "c1", function: "bash", content: "denied", error: { type: "permission", message: "no" } },
  ],
});

describe("inspect_eval_log", () => {
  it("maps tool calls (function as a string), reasoning blocks, attachments and tool errors", async () => {
    const parsed = await parseTrace(sourceFromText("log.json", JSON.stringify({ ...header, samples: [sample(1)] }, null, 2)));
    assert.equal(parsed.format, "inspect_eval_log");
    const [system, assistant, tool] = parsed.sessions[0]!.messages;
    assert.deepEqual(system!.parts, [{ type: "text", text: "a long system prompt" }]);
    assert.deepEqual(
      assistant!.parts.map((p) => p.type),
      ["reasoning", "text", "tool_call"],
    );
    assert.deepEqual(assistant!.parts[2], { type: "tool_call", id: "c1", name: "bash", arguments: '{"cmd":"ls"}' });
    assert.equal(tool!.parts[0]!.type === "tool_result" && tool!.parts[0]!.isError, true);
  });

  it("a .eval zip expands to the JSON log, samples in numeric order", async () => {
    const zip = zipSync({
      "header.json": strToU8(JSON.stringify(header)),
      "samples/10_epoch_1.json": strToU8(JSON.stringify(sample(10))),
      "samples/2_epoch_1.json": strToU8(JSON.stringify(sample(2))),
      "_journal/start.json": strToU8("{}"),
    });
    const parsed = await parseTrace(sourceFromText("x.eval", inspectLogFromEvalZip("x.eval", zip, LIMITS)));
    assert.deepEqual(
      parsed.sessions.map((s) => s.id),
      ["2-epoch-1", "10-epoch-1"],
    );
  });

  it("refuses a zip without header.json, and stops a bomb at the limit", () => {
    assert.throws(
      () => inspectLogFromEvalZip("a.zip", zipSync({ "x.json": strToU8("{}") }), LIMITS),
      (e: unknown) => e instanceof ArchiveError && e.code === "archive_unsupported",
    );
    const bomb = zipSync({ "header.json": strToU8("{}"), "samples/1_epoch_1.json": new Uint8Array(2 << 20) });
    assert.throws(
      () => inspectLogFromEvalZip("b.eval", bomb, LIMITS),
      (e: unknown) => e instanceof ArchiveError && e.code === "archive_too_large" && e.message.startsWith("b.eval: expands past 1 MB"),
    );
    assert.throws(
      () => inspectLogFromEvalZip("c.eval", bomb, { ...LIMITS, maxExpandedBytes: 8 << 20 }),
      (e: unknown) => e instanceof ArchiveError && /200×/.test(e.message),
    );
  });
});
