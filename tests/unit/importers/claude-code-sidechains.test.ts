import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { projectForProviders } from "../../../lib/compaction/projection/provider-fixes";
import { claudeCodeImporter } from "../../../lib/trace/importers/claude-code";
import type { Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { recordLines } from "../../../lib/trace/source-records";

/**
 * Inline sidechains of older Claude Code CLIs (issue 17, item 3 follow-up): a Task subagent's
 * conversation written into the main file between the Task call and its result. Each thread is a
 * session of its own, linked to the call that started it, so the main thread's calls are followed
 * by their results. The first tests read a small excerpt of a real session
 * (tests/fixtures/claude-code/README.md); the others hand-written records for the edges.
 */
const FIXTURE = resolve(__dirname, "../../fixtures/claude-code/inline-sidechains.jsonl");
const MAIN = "fe5e1c67-53e7-4862-81ae-d0e013e3270b";
const parse = async (name: string, text: string) => claudeCodeImporter.parse(sourceFromText(name, text));
const roles = (session: Session) => session.messages.map((m) => m.role);
const pointers = (session: Session) => session.messages.flatMap((m) => Object.entries(m.meta ?? {}).filter(([key]) => key.startsWith("subagent:")));
/**
 * The provider fixes a call split from its result causes ("call … had no result and was removed",
 * "result for … became text"); an excerpt starting mid-session gets other fixes, such as a user
 * placeholder before its first assistant message, which say nothing about sidechains.
 */
function callFixesOf(session: Session) {
  const { fixes } = projectForProviders(session.messages.map((m) => ({ role: m.role, parts: m.parts, origin: m.index })));
  const split = (notes: string[]) => notes.filter((note) => /had no result|became text/.test(note));
  return { openai: split(fixes.openai), anthropic: split(fixes.anthropic) };
}

describe("claude_code_jsonl: inline sidechains of a real excerpt", () => {
  it("reads the main thread as one response with two Task calls followed by their results, then its next step", async () => {
    const { sessions, issues } = await parse("inline-sidechains.jsonl", readFileSync(FIXTURE, "utf8"));
    assert.deepEqual(issues, []);
    const main = sessions[0]!;
    assert.equal(main.id, MAIN);
    assert.equal(main.parentId, undefined);
    assert.deepEqual(roles(main), ["assistant", "tool", "tool", "assistant", "tool"]);
    assert.deepEqual(recordLines(main.messages[0]!), [1, 2, 3], "the response's three records, merged");
    assert.deepEqual(
      main.messages.slice(1, 3).map((m) => m.source.line),
      [9, 15],
      "the Task results, where the file has them",
    );
    assert.ok(main.messages.every((m) => m.meta?.sidechain !== true));
    assert.deepEqual(callFixesOf(main), { openai: [], anthropic: [] });
  });

  it("makes each subagent thread a session whose parent is the main session and whose first message is its Task call's prompt", async () => {
    const { sessions } = await parse("inline-sidechains.jsonl", readFileSync(FIXTURE, "utf8"));
    const [main, ...threads] = sessions;
    assert.deepEqual(
      threads.map((t) => t.id),
      [`${MAIN}:sidechain-0d692b0f-17cb-4fd0-94fb-215dabcef803`, `${MAIN}:sidechain-f4ab2bf6-d642-431a-85cb-66691f24c404`],
    );
    assert.deepEqual(
      threads.map((t) => [t.parentId, t.meta?.parentCallId]),
      [
        [MAIN, "toolu_017rjDpjVPeNFmAEXNTkoP55"],
        [MAIN, "toolu_01EPom7jESzNbU8coiKjzVGS"],
      ],
    );
    assert.deepEqual(
      threads.map((t) => t.messages.flatMap(recordLines)),
      [
        [4, 5, 6, 7, 8],
        [10, 11, 12, 13, 14],
      ],
      "every record of a thread, none of another",
    );
    assert.deepEqual(roles(threads[0]!), ["user", "assistant", "tool", "assistant"]);
    const calls = main!.messages[0]!.parts.flatMap((p) => (p.type === "tool_call" ? [p] : []));
    threads.forEach((thread, i) => {
      const first = thread.messages[0]!.parts[0]!;
      assert.equal(first.type === "text" && first.text, (JSON.parse(calls[i]!.arguments) as { prompt: string }).prompt);
      assert.ok(thread.title.startsWith(i === 0 ? "Implement state management" : "Create the main page layout"), thread.title);
      assert.deepEqual(callFixesOf(thread), { openai: [], anthropic: [] }, thread.id);
    });
    assert.deepEqual(
      pointers(main!),
      threads.map((t) => [`subagent:${t.meta!.parentCallId}`, t.id]),
      "the main message holding the calls points at each thread",
    );
  });
});

describe("claude_code_jsonl: inline sidechain edges", () => {
  const base = { sessionId: "s-1", timestamp: "2026-01-01T00:00:00Z" };
  const user = (uuid: string, parentUuid: string | null, content: unknown, isSidechain = false) => ({
    ...base,
    type: "user",
    uuid,
    parentUuid,
    isSidechain,
    message: { role: "user", content },
  });
  const assistant = (uuid: string, parentUuid: string, id: string, content: unknown[], isSidechain = false) => ({
    ...base,
    type: "assistant",
    uuid,
    parentUuid,
    isSidechain,
    message: { id, role: "assistant", model: "claude-sonnet-4-20250514", content },
  });
  const task = (id: string, prompt: string) => ({ type: "tool_use", id, name: "Task", input: { description: prompt, prompt } });
  const result = (callId: string, text: string) => [{ type: "tool_result", tool_use_id: callId, content: text }];
  const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

  it("separates two subagents writing at once, record by record, and links each to its own call whatever their order", async () => {
    const text = jsonl(
      user("u0", null, "Do two things"),
      assistant("a1", "u0", "msg_main", [task("call_a", "Thing A"), task("call_b", "Thing B")]),
      user("b0", null, "Thing B", true),
      user("x0", null, "Thing A", true),
      assistant("b1", "b0", "msg_b", [{ type: "text", text: "B done" }], true),
      assistant("x1", "x0", "msg_x", [{ type: "text", text: "A done" }], true),
      user("r1", "a1", result("call_b", "B done")),
      user("r2", "r1", result("call_a", "A done")),
    );
    const { sessions } = await parse("parallel.jsonl", text);
    assert.deepEqual(
      sessions.map((s) => s.id),
      ["s-1", "s-1:sidechain-b0", "s-1:sidechain-x0"],
    );
    assert.deepEqual(roles(sessions[0]!), ["user", "assistant", "tool", "tool"]);
    assert.deepEqual(
      sessions.slice(1).map((s) => [s.meta?.parentCallId, s.messages.flatMap(recordLines)]),
      [
        ["call_b", [3, 5]],
        ["call_a", [4, 6]],
      ],
    );
    assert.deepEqual(pointers(sessions[0]!), [
      ["subagent:call_a", "s-1:sidechain-x0"],
      ["subagent:call_b", "s-1:sidechain-b0"],
    ]);
    for (const session of sessions) assert.deepEqual(callFixesOf(session), { openai: [], anthropic: [] }, session.id);
  });

  it("keeps a thread no call's prompt matches as a child session without a call, and guesses no link", async () => {
    const text = jsonl(
      user("u0", null, "Hi"),
      assistant("a1", "u0", "msg_main", [task("call_a", "Thing A")]),
      user("x0", null, "Something else", true),
      user("r1", "a1", result("call_a", "done")),
    );
    const { sessions } = await parse("unmatched.jsonl", text);
    assert.equal(sessions.length, 2);
    assert.equal(sessions[1]!.parentId, "s-1");
    assert.equal(sessions[1]!.meta?.parentCallId, undefined);
    assert.deepEqual(pointers(sessions[0]!), []);
  });

  it("reads a file whose first message is a sidechain record as one subagent transcript, not as threads", async () => {
    const text = jsonl(
      user("x0", null, "Thing A", true),
      assistant("x1", "x0", "msg_x", [{ type: "text", text: "A done" }], true),
      user("y0", null, "Thing B", true),
    );
    const { sessions } = await parse("agent-file.jsonl", text);
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0]!.messages.length, 3);
  });
});
