import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { sessionUsageRows } from "../../../lib/online/usage/trace-usage";
import { createAnalyzer } from "../../../lib/analysis/analyze";
import { recordLines } from "../../../lib/trace/source-records";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { claudeRows, parseClaudeCodeTrace as parse } from "../../helpers/claude-code-parse";

/* Real transcripts: native compactions, usage kept once per API response, subagent and sidechain sessions, tool results. */
describe("claude_code_jsonl: sessions, compactions, subagents", () => {
  const row = (fragment: string) => {
    const found = claudeRows.find((r) => r.path.endsWith(fragment));
    assert.ok(found, `MANIFEST row ${fragment}`);
    return found;
  };
  const parseRow = async (fragment: string) => {
    const entry = row(fragment);
    return parse(await sourceFromFile(entry.absolutePath, entry.path));
  };

  for (const id of ["258c7280-ae70-4798-800f-63464d01a85d", "4d5611e5-241a-462a-8d15-5122611a9569"]) {
    it(`long main session ${id.slice(0, 8)} has exactly one native compaction with preTokens and a summary`, async () => {
      const { sessions } = await parseRow(`${id}.jsonl`);
      const session = sessions[0]!;
      assert.equal(session.id, id);
      assert.equal(session.compactions.length, 1);
      const compaction = session.compactions[0]!;
      assert.equal(compaction.kind, "claude_code_compact_boundary");
      assert.equal(compaction.trigger, "auto");
      assert.ok((compaction.preTokens ?? 0) > 100_000, `preTokens ${compaction.preTokens}`);
      assert.ok(compaction.summary && compaction.summary.startsWith("This session is being continued"));
      const summaryMessage = session.messages[compaction.beforeMessage]!;
      assert.equal(summaryMessage.meta?.compactSummary, true, "the summary record is kept as the first message after the boundary");
      assert.equal(summaryMessage.source.line, compaction.source.line + 1);
    });
  }

  it("keeps each API response's usage once, from its last record: usage rows and provider input tokens match the raw file", async () => {
    const entry = row("258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const { sessions } = await parse(await sourceFromFile(entry.absolutePath, entry.path));
    const session = sessions[0]!;
    // Independently from the raw JSONL: the last usage each message.id reported, and the largest prompt.
    type RawUsage = { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
    const lastUsage = new Map<string, RawUsage>();
    for (const text of readFileSync(entry.absolutePath, "utf8").split("\n")) {
      if (!text.trim()) continue;
      const record = JSON.parse(text) as { type?: string; message?: { id?: string; model?: string; usage?: RawUsage } };
      if (record.type === "assistant" && record.message?.id && record.message.usage && record.message.model !== "<synthetic>")
        lastUsage.set(record.message.id, record.message.usage);
    }
    const prompt = (u: RawUsage) => u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    const withUsage = session.messages.filter((m) => m.usage);
    assert.ok(withUsage.length > 100);
    assert.deepEqual(
      withUsage.map((m) => [m.meta?.apiMessageId, m.usage!.inputTokens, m.usage!.outputTokens]),
      [...lastUsage].map(([id, u]) => [id, u.input_tokens, u.output_tokens]),
      "one usage per response, in order, the last record's",
    );
    const rows = sessionUsageRows(session, { account: "a" }).rows;
    assert.equal(rows.length, lastUsage.size, "one usage row per model call");
    const stats = createAnalyzer({ tokenizer: "chars4" }).analyze(session).stats;
    assert.equal(stats.providerInputTokens, Math.max(...[...lastUsage.values()].map(prompt)));
  });

  it("makes subagent files their own session whose parent is the path's session id", async () => {
    const { sessions } = await parseRow("258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl");
    assert.equal(sessions[0]!.id, "258c7280-ae70-4798-800f-63464d01a85d:agent-a881341");
    assert.equal(sessions[0]!.parentId, "258c7280-ae70-4798-800f-63464d01a85d");
    assert.ok(sessions[0]!.title.startsWith("What is the output contract"));
  });

  it("makes each inline sidechain thread of an older CLI a session of its own, linked both ways to its Task call", async () => {
    const { sessions } = await parseRow("fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl");
    const [main, ...threads] = sessions;
    assert.equal(main!.parentId, undefined);
    assert.equal(main!.title, "/orchestrator create TODO app by Next.js");
    assert.equal(main!.messages.filter((m) => m.meta?.sidechain === true).length, 0, "the main session holds no sidechain record");
    assert.equal(threads.length, 5, "five Task calls, five threads");
    const children = threads.flatMap((t) => t.messages);
    assert.ok(children.every((m) => m.meta?.sidechain === true));
    assert.equal(
      children.reduce((n, m) => n + recordLines(m).length, 0),
      405,
      "sidechain records",
    );
    assert.equal(children.length, 322, "sidechain messages (split responses merged)");
    const calls = new Map(main!.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === "tool_call" ? [[p.id, { message: m, call: p }] as const] : []))));
    for (const thread of threads) {
      assert.equal(thread.parentId, main!.id);
      assert.match(thread.id, new RegExp(`^${main!.id}:sidechain-[0-9a-f-]{36}$`));
      const callId = String(thread.meta?.parentCallId);
      const found = calls.get(callId);
      assert.ok(found, `${thread.id}: its Task call ${callId} is in the main session`);
      assert.equal(found.call.name, "Task");
      assert.equal(found.message.meta?.[`subagent:${callId}`], thread.id, "the call's message points at the thread");
      const prompt = (JSON.parse(found.call.arguments) as { prompt: string }).prompt;
      assert.equal(thread.messages[0]!.role, "user");
      assert.equal(thread.messages[0]!.parts[0]!.type === "text" && thread.messages[0]!.parts[0]!.text, prompt, "the thread starts with the call's prompt");
      assert.equal(thread.title, prompt.split("\n")[0]!.slice(0, 79) + (prompt.split("\n")[0]!.length > 80 ? "…" : ""));
    }
  });

  it("points a newer CLI's Task call at its subagent file's session", async () => {
    const { sessions } = await parseRow("258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const pointers = sessions[0]!.messages.flatMap((m) => Object.entries(m.meta ?? {}).filter(([key]) => key.startsWith("subagent:")));
    assert.deepEqual(pointers, [["subagent:toolu_01VmaERAwhb19LGUwu9GenaK", "258c7280-ae70-4798-800f-63464d01a85d:agent-a881341"]]);
  });

  it("maps user records with tool_result blocks to role tool, with is_error kept", async () => {
    const { sessions } = await parseRow("tool_heavy.jsonl");
    const results = sessions[0]!.messages.filter((m) => m.parts.some((p) => p.type === "tool_result"));
    assert.ok(results.length > 0 && results.every((m) => m.role === "tool"));
    assert.ok(sessions[0]!.messages.every((m) => m.source.line > 0));
  });
});
