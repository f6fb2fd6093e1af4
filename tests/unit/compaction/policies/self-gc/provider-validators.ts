import assert from "node:assert/strict";
import type { AnthropicPayload, OpenAiMessage } from "../../../../../lib/compaction/projection/provider";

/** What the Chat Completions API requires of a message list (the checks its validator makes). */
export function assertValidOpenAi(messages: OpenAiMessage[], where = ""): void {
  const ids = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "system" || m.role === "user") assert.ok(m.content.trim(), `${where}: empty ${m.role} message ${i}`);
    if (m.role === "tool") assert.fail(`${where}: tool message ${i} does not follow its assistant call`);
    if (m.role !== "assistant") continue;
    const calls = m.tool_calls ?? [];
    assert.ok((m.content !== null && m.content.trim()) || calls.length > 0, `${where}: empty assistant message ${i}`);
    if (calls.length === 0) continue;
    assert.ok(!("tool_calls" in m) || calls.length > 0, `${where}: empty tool_calls at ${i}`);
    const answered: string[] = [];
    while (messages[i + 1]?.role === "tool") {
      const t = messages[++i] as Extract<OpenAiMessage, { role: "tool" }>;
      answered.push(t.tool_call_id);
    }
    assert.deepEqual(
      answered,
      calls.map((c) => c.id),
      `${where}: results after assistant message do not match its calls`,
    );
    for (const c of calls) {
      assert.ok(!ids.has(c.id), `${where}: duplicate call id ${c.id}`);
      ids.add(c.id);
      assert.equal(c.type, "function");
    }
  }
}

/** What the Messages API requires: top-level system, user-first alternation, tool_result pairing. */
export function assertValidAnthropic(payload: AnthropicPayload, where = ""): void {
  const { messages } = payload;
  if (messages.length === 0) return;
  assert.equal(messages[0]!.role, "user", `${where}: first message must be user`);
  const ids = new Set<string>();
  let previousUses: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (i > 0) assert.notEqual(m.role, messages[i - 1]!.role, `${where}: roles do not alternate at ${i}`);
    assert.ok(m.content.length > 0, `${where}: empty message ${i}`);
    for (const b of m.content) if (b.type === "text") assert.ok(b.text.trim(), `${where}: empty text block in ${i}`);
    if (m.role === "assistant") {
      assert.ok(!m.content.some((b) => b.type === "tool_result"), `${where}: tool_result in assistant ${i}`);
      previousUses = m.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
      for (const b of m.content) {
        if (b.type !== "tool_use") continue;
        assert.match(b.id, /^[A-Za-z0-9_-]+$/);
        assert.ok(!ids.has(b.id), `${where}: duplicate tool_use id ${b.id}`);
        ids.add(b.id);
        assert.ok(b.input && typeof b.input === "object" && !Array.isArray(b.input));
      }
      continue;
    }
    const results = m.content.filter((b) => b.type === "tool_result");
    const leading = m.content.slice(0, results.length);
    assert.ok(
      leading.every((b) => b.type === "tool_result"),
      `${where}: tool_result blocks must come first in user message ${i}`,
    );
    assert.deepEqual(
      results.map((b) => (b.type === "tool_result" ? b.tool_use_id : "")),
      previousUses,
      `${where}: user message ${i} must answer every tool_use of the previous assistant`,
    );
    previousUses = [];
  }
  assert.deepEqual(previousUses, [], `${where}: the last assistant tool_use has no result`);
}
