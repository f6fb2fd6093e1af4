import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openhandsImporter } from "../../../lib/trace/importers/openhands";
import type { ParseIssue, Part, Session, ToolResultPart } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const manifest = readManifest();
const rows = manifest.filter((row) => row.format === "openhands_events");
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));
const resultsOf = (sessions: Session[]) => partsOf(sessions, "tool_result") as ToolResultPart[];
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const lineOfText = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length;
const fileName = (path: string) => path.split("/").pop() ?? path;

/**
 * Deliberate deviations from the MANIFEST for basic_gui_mode.json (18 events). The MANIFEST counts
 * every event as a message (18) and every event with a `cause` as a tool result (7). Four of those
 * events are `agent_state_changed` observations, one a `change_agent_state` action and three
 * `null` observations ("No observation", caused by that action and by two `message` actions):
 * UI bookkeeping the agent's LLM never sees, which OpenHands itself drops when it builds the
 * prompt. Importing them would put fake turns and orphan results into every context replay, so
 * the principled counts are the 10 conversational events and the 4 real results (one per
 * run/edit call). basic_interactions.json has no such events and matches the MANIFEST as is.
 */
const PRINCIPLED_COUNTS: Record<string, { messages: number; toolResults: number }> = {
  "basic_gui_mode.json": { messages: 10, toolResults: 4 },
};

const response = (id: string, callId: string, args: string, usage: Record<string, unknown> = { prompt_tokens: 100, completion_tokens: 10 }) => ({
  id,
  model: "claude-3-5-sonnet-20241022",
  choices: [{ message: { role: "assistant", tool_calls: [{ id: callId, type: "function", function: { name: "execute_bash", arguments: args } }] } }],
  usage,
});
const userMessage = (id: number, content: string) => ({
  id,
  timestamp: "2025-01-20T20:29:32.262843",
  source: "user",
  message: content,
  action: "message",
  args: { content, image_urls: [], wait_for_response: false },
});
const runAction = (id: number, command: string, metadata?: Record<string, unknown>) => ({
  id,
  timestamp: "2025-01-20T20:29:35.040676",
  source: "agent",
  message: `Running command: ${command}`,
  action: "run",
  args: { command, is_input: false, thought: "Let me run it.", blocking: false },
  ...(metadata ? { tool_call_metadata: metadata } : {}),
});
const runObservation = (id: number, cause: number, content: string, exitCode: number, metadata?: Record<string, unknown>) => ({
  id,
  timestamp: "2025-01-20T20:29:35.699033",
  source: "agent",
  message: "Command executed.",
  cause,
  observation: "run",
  content,
  extras: { command: "x", metadata: { exit_code: exitCode, prefix: "", suffix: `\n[The command completed with exit code ${exitCode}.]` } },
  ...(metadata ? { tool_call_metadata: metadata } : {}),
});
const stateChanged = (id: number, state: string) => ({
  id,
  timestamp: "2025-01-20T20:29:32.176175",
  source: "environment",
  message: "",
  observation: "agent_state_changed",
  content: "",
  extras: { agent_state: state },
});

describe("openhands_events: real event streams match the MANIFEST", () => {
  it("has openhands_events rows to check", () => assert.ok(rows.length >= 2));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions, issues } = await openhandsImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      const expected = { messages: row.messages, toolResults: row.toolResults, ...PRINCIPLED_COUNTS[fileName(row.path)] };
      assert.deepEqual(errorsOf(issues), []);
      assert.equal(sessions.length, row.sessions);
      assert.equal(
        sessions.reduce((n, s) => n + s.messages.length, 0),
        expected.messages,
        "messages (see PRINCIPLED_COUNTS)",
      );
      assert.equal(partsOf(sessions, "tool_call").length, row.toolCalls, "tool_call parts");
      assert.equal(resultsOf(sessions).length, expected.toolResults, "tool_result parts (see PRINCIPLED_COUNTS)");
      assert.equal(resultsOf(sessions).filter((p) => p.orphan).length, 0, "every result links to its call");
      assert.deepEqual(
        sessions.flatMap((s) => s.models),
        row.models,
      );
    });
  }

  it("basic_gui_mode: calls carry the model's own arguments, results the text the LLM saw", async () => {
    const row = rows.find((r) => r.path.endsWith("basic_gui_mode.json"));
    assert.ok(row);
    const { sessions } = await openhandsImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    const session = sessions[0]!;
    assert.equal(session.id, "basic_gui_mode");
    assert.equal(session.startedAt, "2025-01-20T20:29:32.262843");
    const [user, run, runResult, edit] = session.messages;
    assert.equal(user!.role, "user");
    assert.deepEqual(run!.parts[1], {
      type: "tool_call",
      id: "toolu_01W9Z8jBctr8X2frZV9p1RYs",
      name: "execute_bash",
      arguments: '{"command": "mkdir -p /workspace/todo-app"}',
    });
    assert.match(run!.parts[0]!.type === "text" ? run!.parts[0]!.text : "", /^I'll help you create a Vue.js application/);
    assert.deepEqual(run!.usage, { inputTokens: 3439, outputTokens: 104, cachedInputTokens: 0, cacheWriteTokens: 3435 });
    assert.deepEqual(runResult!.parts, [
      { type: "tool_result", callId: "toolu_01W9Z8jBctr8X2frZV9p1RYs", name: "execute_bash", content: "\n[The command completed with exit code 0.]" },
    ]);
    assert.deepEqual(runResult!.meta, { eventId: 8, observation: "run", exitCode: 0 });
    const editCall = edit!.parts.find((p) => p.type === "tool_call");
    assert.ok(editCall?.type === "tool_call");
    assert.match(editCall.arguments, /"file_text": "<!DOCTYPE html>/, "OpenHands' args keep content empty; the model's arguments have the file");
    const serverResult = resultsOf(sessions).at(-1)!;
    assert.equal(serverResult.isError, true, "exit code -1 (the server was still running)");
    assert.equal(session.messages.at(-1)!.role, "assistant");
  });

  it("basic_interactions: finish is the agent's final text, with the model that wrote it", async () => {
    const row = rows.find((r) => r.path.endsWith("basic_interactions.json"));
    assert.ok(row);
    const { sessions } = await openhandsImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    const last = sessions[0]!.messages.at(-1)!;
    assert.deepEqual(last.parts, [{ type: "text", text: "All done! What's next on the agenda?" }]);
    assert.equal(last.model, "gpt-4o-2024-08-06");
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.role),
      ["user", "assistant", "user", "assistant", "user", "assistant"],
    );
  });
});

describe("openhands_events: detection", () => {
  it("scores its own files at least 0.5", async () => {
    for (const row of rows) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      assert.ok(openhandsImporter.detect(row.path, source.head) >= 0.5, row.path);
    }
  });

  it("scores every other format's files below 0.3 (Claude Code, aider and tau-bench included)", async () => {
    const others = manifest.filter((row) => row.format !== "openhands_events");
    assert.ok(["claude_code_jsonl", "aider_chat_md", "tau_bench_traj"].every((f) => others.some((r) => r.format === f)));
    for (const row of others) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      assert.ok(openhandsImporter.detect(row.path, source.head) < 0.3, row.path);
    }
  });
});

describe("openhands_events: mapping", () => {
  it("bookkeeping events are skipped; an observation links to its cause's call", async () => {
    const events = [stateChanged(0, "init"), userMessage(1, "list files"), stateChanged(2, "running"), runAction(3, "ls"), runObservation(4, 3, "a.txt", 0)];
    const { sessions, issues } = await openhandsImporter.parse(sourceFromText("s.json", pretty(events)));
    assert.deepEqual(issues, []);
    const messages = sessions[0]!.messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "tool"],
    );
    assert.deepEqual(messages[1]!.parts, [
      { type: "text", text: "Let me run it." },
      { type: "tool_call", id: "call_1", name: "run", arguments: '{"command":"ls","is_input":false,"blocking":false}' },
    ]);
    assert.deepEqual(messages[2]!.parts, [{ type: "tool_result", callId: "call_1", name: "run", content: "a.txt\n[The command completed with exit code 0.]" }]);
  });

  it("usage of one LLM response shared by several actions is counted once", async () => {
    const shared = response("chatcmpl-1", "toolu_a", '{"command": "ls"}');
    (shared.choices[0]!.message.tool_calls as unknown[]).push({
      id: "toolu_b",
      type: "function",
      function: { name: "execute_bash", arguments: '{"command": "pwd"}' },
    });
    const events = [
      runAction(1, "ls", { function_name: "execute_bash", tool_call_id: "toolu_a", model_response: shared, total_calls_in_response: 2 }),
      runAction(2, "pwd", { function_name: "execute_bash", tool_call_id: "toolu_b", model_response: shared, total_calls_in_response: 2 }),
      runObservation(3, 1, "x", 0),
      runObservation(4, 2, "/w", 0),
    ];
    const { sessions } = await openhandsImporter.parse(sourceFromText("s.json", pretty(events)));
    const [first, second] = sessions[0]!.messages;
    assert.deepEqual(first!.usage, { inputTokens: 100, outputTokens: 10 });
    assert.equal(second!.usage, undefined);
    assert.equal(second!.model, "claude-3-5-sonnet-20241022");
    const secondCall = second!.parts.at(-1);
    assert.ok(secondCall?.type === "tool_call");
    assert.equal(secondCall.arguments, '{"command": "pwd"}', "the arguments of this action's own call in the shared response");
    assert.deepEqual(
      resultsOf(sessions).map((r) => r.callId),
      ["toolu_a", "toolu_b"],
    );
  });

  it("error observations are failed results; an observation whose call is unknown is kept as an orphan", async () => {
    const events = [
      runAction(1, "make", { function_name: "execute_bash", tool_call_id: "toolu_a" }),
      { id: 2, source: "agent", message: "boom", cause: 1, observation: "error", content: "ERROR: it broke", extras: {} },
      runObservation(3, 99, "late output", 0, { function_name: "execute_bash", tool_call_id: "toolu_gone" }),
    ];
    const { sessions, issues } = await openhandsImporter.parse(sourceFromText("s.json", pretty(events)));
    assert.deepEqual(issues, []);
    const [error, orphan] = resultsOf(sessions);
    assert.deepEqual(error, { type: "tool_result", callId: "toolu_a", name: "execute_bash", content: "ERROR: it broke", isError: true });
    assert.equal(orphan!.orphan, true);
    assert.equal(orphan!.callId, "toolu_gone");
  });

  it("an observation caused by a message (not a call) is shown as user text", async () => {
    const events = [
      userMessage(1, "hi"),
      { id: 2, source: "environment", message: "", cause: 1, observation: "error", content: "Agent got stuck", extras: {} },
    ];
    const { sessions } = await openhandsImporter.parse(sourceFromText("s.json", pretty(events)));
    assert.deepEqual(
      sessions[0]!.messages.map((m) => [m.role, m.parts[0]?.type]),
      [
        ["user", "text"],
        ["user", "text"],
      ],
    );
  });

  it("a condensation action is recorded as a native compaction, not a message", async () => {
    const events = [
      userMessage(1, "hi"),
      { id: 2, source: "agent", message: "", action: "condensation", args: { forgotten_event_ids: [1], summary: "User said hi." } },
      userMessage(3, "again"),
    ];
    const { sessions } = await openhandsImporter.parse(sourceFromText("s.json", pretty(events)));
    assert.equal(sessions[0]!.messages.length, 2);
    assert.equal(sessions[0]!.compactions.length, 1);
    assert.equal(sessions[0]!.compactions[0]!.beforeMessage, 1);
    assert.equal(sessions[0]!.compactions[0]!.summary, "User said hi.");
  });
});

describe("openhands_events: malformed input", () => {
  it("an object where the event array belongs is a located error naming the shape", async () => {
    const { sessions, issues } = await openhandsImporter.parse(sourceFromText("x.json", pretty({ events: [userMessage(1, "hi")] })));
    assert.equal(sessions.length, 0);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.severity, "error");
    assert.equal(issues[0]!.line, 1);
    assert.match(issues[0]!.message, /expected a JSON array of events, found an object/);
    assert.match(issues[0]!.expected ?? "", /source, action \| observation/);
  });

  it("an event with neither action nor observation is located by line and field; the rest imports", async () => {
    const text = pretty([userMessage(1, "hi"), { id: 2, source: "agent", message: "half-written event" }, userMessage(3, "still here")]);
    const { sessions, issues } = await openhandsImporter.parse(sourceFromText("x.json", text));
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.meta?.eventId),
      [1, 3],
    );
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.severity, "error");
    assert.equal(issues[0]!.field, "[1].action");
    assert.equal(issues[0]!.line, lineOfText(text, '"half-written event"') - 3, "the line where the event starts");
  });

  it("a message event without content is a warning on args.content", async () => {
    const { sessions, issues } = await openhandsImporter.parse(sourceFromText("x.json", pretty([{ id: 1, source: "user", action: "message", args: {} }])));
    assert.equal(sessions[0]!.messages.length, 1);
    assert.deepEqual(
      issues.map((i) => [i.severity, i.field]),
      [["warning", "[0].args.content"]],
    );
  });
});
