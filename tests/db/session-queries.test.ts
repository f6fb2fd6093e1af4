import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { partText } from "../../lib/tokens/message-tokens";
import { partBody } from "../../lib/trace/part-body";
import type { Part } from "../../lib/trace/model";
import { getMessage } from "../../server/trace/session/get-message";
import { getMessageWindow, MAX_WINDOW } from "../../server/trace/session/get-message-window";
import { getSessionOverview } from "../../server/trace/session/get-session-overview";
import { searchSession } from "../../server/trace/session/search-session";
import type { MessageView, PartView } from "../../server/trace/session/types";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** A real Claude Code session: 491 records (344 messages once split API responses merge), 186 tool calls, one native compaction. */
const COMPACTED = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");

/** The part's text as the viewer sends it (undefined for images, which carry none). */
const textOf = (part: PartView): string | undefined => (part.type === "image" ? undefined : part.type === "other" ? part.text : partBody(part));

for (const engine of ENGINES) {
  describe(`session viewer queries on ${engine}`, () => {
    let t: TestDb;
    let sessionId: string;
    let messageCount: number;
    /** Every message's parts as stored, for brute-force comparisons. */
    let stored: { index: number; parts: Part[] }[];

    before(async () => {
      t = await createTestDb(engine);
      const outcome = await importTraceFile({ db: t.db, store: t.store, path: COMPACTED });
      assert.equal(outcome.status, "imported");
      if (outcome.status !== "imported") return;
      sessionId = outcome.sessions[0]!.id;
      messageCount = outcome.sessions[0]!.messages;
      const rows = await t.db.traceMessage.findMany({ where: { sessionId }, select: { index: true, parts: true }, orderBy: { index: "asc" } });
      stored = rows.map((r) => ({ index: r.index, parts: JSON.parse(r.parts) as Part[] }));
    });
    after(async () => {
      await t?.close();
    });

    describe("getSessionOverview", () => {
      test("has one role code and token count per message, every object and the native compaction", async () => {
        const overview = await getSessionOverview(t.db, sessionId);
        assert.ok(overview);
        assert.equal(overview.messageCount, messageCount);
        assert.equal(overview.messageTokens.length, messageCount);
        assert.equal(overview.roleCodes.length, messageCount);
        assert.match(overview.roleCodes, /^[suat]+$/);
        assert.equal(overview.maxMessageTokens, Math.max(...overview.messageTokens));
        assert.equal(overview.objects.length, await t.db.contextObjectRow.count({ where: { sessionId } }));
        assert.equal(overview.compactions.length, 1);
        assert.equal(overview.compactions[0]!.kind, "claude_code_compact_boundary");
        assert.ok((overview.compactions[0]!.preTokens ?? 0) > 100_000);
        assert.ok(overview.providerInputTokens !== undefined && overview.providerInputTokens > 0, "Claude Code reports usage");
        const firstMessages = overview.objects.map((o) => o.firstMessage);
        assert.deepEqual(
          firstMessages,
          [...firstMessages].sort((a, b) => a - b),
          "objects are in message order",
        );
      });

      test("is null for an unknown session id", async () => {
        assert.equal(await getSessionOverview(t.db, "no-such-session"), null);
      });
    });

    describe("getMessageWindow bounds", () => {
      test("returns exactly [from, to) in order", async () => {
        const window = await getMessageWindow(t.db, sessionId, { from: 40, to: 90 });
        assert.ok(window);
        assert.deepEqual(
          window.messages.map((m) => m.index),
          Array.from({ length: 50 }, (_, i) => 40 + i),
        );
        assert.equal(window.messageCount, messageCount);
      });

      test("clamps a range that runs past the end", async () => {
        const window = await getMessageWindow(t.db, sessionId, { from: messageCount - 7, to: messageCount + 100 });
        assert.equal(window?.to, messageCount);
        assert.equal(window?.messages.length, 7);
        assert.equal(window?.messages.at(-1)?.index, messageCount - 1);
      });

      test("answers an empty window past the end, not an error", async () => {
        const window = await getMessageWindow(t.db, sessionId, { from: messageCount + 5, to: messageCount + 10 });
        assert.deepEqual(window?.messages, []);
        assert.equal(window?.from, messageCount);
      });

      test(`never returns more than ${MAX_WINDOW} messages`, async () => {
        const window = await getMessageWindow(t.db, sessionId, { from: 0, to: 10_000 });
        assert.equal(window?.messages.length, MAX_WINDOW);
        assert.equal(window?.to, MAX_WINDOW);
      });

      test("is null for an unknown session id", async () => {
        assert.equal(await getMessageWindow(t.db, "no-such-session", { from: 0, to: 10 }), null);
      });
    });

    describe("previews", () => {
      test("cut long texts to the preview length, flag them and keep the full length and lines", async () => {
        const window = await getMessageWindow(t.db, sessionId, { from: 0, to: MAX_WINDOW, previewChars: 300 });
        let cut = 0;
        let whole = 0;
        for (const message of window!.messages) {
          message.parts.forEach((part, p) => {
            const text = textOf(part);
            if (text === undefined || !("truncated" in part)) return;
            const original = storedText(stored[message.index]!.parts[p]!);
            assert.equal(part.length, original.length, `length of ${message.index}:${p}`);
            if (original.length > 300) {
              cut++;
              assert.equal(part.truncated, true);
              assert.ok(text.length <= 300 && original.startsWith(text));
              assert.ok(part.lines >= text.split("\n").length);
            } else {
              whole++;
              assert.equal(part.truncated, false);
              assert.equal(text, original);
            }
          });
        }
        assert.ok(cut > 10 && whole > 10, `both kinds occur (cut ${cut}, whole ${whole})`);
      });

      test("getMessage returns every part in full", async () => {
        const longest = stored.reduce((best, m) => (sizeOf(m.parts) > sizeOf(best.parts) ? m : best));
        const message = await getMessage(t.db, sessionId, longest.index);
        assert.ok(message);
        message.parts.forEach((part, p) => {
          if ("truncated" in part) assert.equal(part.truncated, false);
          const text = textOf(part);
          if (text !== undefined) assert.equal(text, storedText(longest.parts[p]!));
        });
        assert.equal(await getMessage(t.db, sessionId, messageCount), null);
      });
    });

    describe("links between calls, results and objects", () => {
      test("every tool_result carries its object id and every call points at its result", async () => {
        const objects = await t.db.contextObjectRow.findMany({ where: { sessionId, kind: "function" } });
        const byId = new Map(objects.map((o) => [o.objectId, o]));
        const messages = await allMessages(t, sessionId, messageCount);
        let results = 0;
        for (const message of messages) {
          message.parts.forEach((part, p) => {
            if (part.type === "tool_result") {
              results++;
              const object = byId.get(part.objectId ?? "");
              assert.ok(object, `result ${message.index}:${p} has an object id`);
              assert.equal(object.partMessage, message.index);
              assert.equal(object.partIndex, p);
              assert.ok(part.callMessage !== undefined && part.callMessage <= message.index, `result ${message.index}:${p} links to its call`);
              const call = messages[part.callMessage!]!.parts.find((c) => c.type === "tool_call" && c.id === part.callId);
              assert.ok(call, "the linked message holds the call");
            }
            if (part.type === "tool_call" && part.resultObjectId) {
              assert.equal(byId.get(part.resultObjectId)?.partMessage, part.resultMessage);
            }
          });
        }
        assert.equal(results, objects.length);
      });

      test("a window that starts at a result still finds the call before it", async () => {
        const resultAt = stored.find((m) => m.index > 0 && m.parts.some((p) => p.type === "tool_result"))!;
        const window = await getMessageWindow(t.db, sessionId, { from: resultAt.index, to: resultAt.index + 1 });
        const result = window!.messages[0]!.parts.find((p) => p.type === "tool_result");
        assert.ok(result?.type === "tool_result" && result.callMessage !== undefined && result.callMessage < resultAt.index);
      });

      test("user requests carry their conversation:user:k id", async () => {
        const first = await t.db.contextObjectRow.findUniqueOrThrow({ where: { sessionId_objectId: { sessionId, objectId: "conversation:user:1" } } });
        const message = await getMessage(t.db, sessionId, first.firstMessage);
        assert.equal(message?.conversationId, "conversation:user:1");
      });
    });

    describe("searchSession", () => {
      test("an exact object id finds that object's part", async () => {
        const object = await t.db.contextObjectRow.findFirstOrThrow({ where: { sessionId, kind: "function" }, orderBy: { firstMessage: "desc" } });
        const result = await searchSession(t.db, sessionId, object.objectId);
        assert.equal(result?.mode, "object");
        assert.deepEqual(
          result?.hits.map((h) => [h.message, h.part, h.objectId]),
          [[object.partMessage, object.partIndex, object.objectId]],
        );
      });

      test("an object id prefix lists those objects in message order", async () => {
        const reads = await t.db.contextObjectRow.findMany({ where: { sessionId, tool: "read" }, orderBy: { firstMessage: "asc" } });
        assert.ok(reads.length > 3);
        const result = await searchSession(t.db, sessionId, "function:read:");
        assert.equal(result?.mode, "object");
        assert.deepEqual(
          result?.hits.map((h) => h.objectId),
          reads.map((r) => r.objectId),
        );
      });

      test("an id-shaped query naming no object falls back to text search", async () => {
        const result = await searchSession(t.db, sessionId, "function:no-such-tool:1");
        assert.equal(result?.mode, "text");
      });

      // Text search must agree with a brute-force scan of the decoded parts: JSON keys, escapes and
      // LIKE wildcards in the query must neither add nor hide hits.
      const queries = ["defmodule", "DEFMODULE", "session_live", "tool_use_id", '"', "100%", "→", "\\n", "mix test", "x"];
      for (const query of queries) {
        test(`text hits for ${JSON.stringify(query)} equal a brute-force scan`, async () => {
          const expected = stored.filter((m) => m.parts.some((p) => partText(p).toLowerCase().includes(query.toLowerCase()))).map((m) => m.index);
          const result = await searchSession(t.db, sessionId, query);
          assert.equal(result?.mode, "text");
          assert.deepEqual(
            result?.hits.map((h) => h.message),
            expected.slice(0, 1000),
          );
          for (const hit of result?.hits.slice(0, 20) ?? []) {
            assert.ok(partText(stored[hit.message]!.parts[hit.part!]!).toLowerCase().includes(query.toLowerCase()), "the hit part contains the query");
          }
        });
      }

      test("a snippet shows the text around the match", async () => {
        const result = await searchSession(t.db, sessionId, "defmodule");
        assert.ok(result && result.hits.length > 0);
        assert.match(result.hits[0]!.snippet, /defmodule/i);
        assert.ok(result.hits[0]!.snippet.length < 260);
      });

      test("stops at the limit and says there are more", async () => {
        const result = await searchSession(t.db, sessionId, "e", { limit: 3 });
        assert.equal(result?.hits.length, 3);
        assert.equal(result?.truncated, true);
      });

      test("an empty query finds nothing; an unknown session is null", async () => {
        assert.deepEqual((await searchSession(t.db, sessionId, "   "))?.hits, []);
        assert.equal(await searchSession(t.db, "no-such-session", "x"), null);
      });
    });
  });
}

function storedText(part: Part): string {
  switch (part.type) {
    case "text":
    case "reasoning":
      return part.text;
    case "tool_call":
      return part.arguments;
    case "tool_result":
      return part.content;
    case "other":
      return part.text ?? "";
    case "image":
      return "";
  }
}

function sizeOf(parts: Part[]): number {
  return parts.reduce((n, p) => n + storedText(p).length, 0);
}

async function allMessages(t: TestDb, sessionId: string, count: number): Promise<MessageView[]> {
  const messages: MessageView[] = [];
  for (let from = 0; from < count; from += MAX_WINDOW) {
    messages.push(...(await getMessageWindow(t.db, sessionId, { from, to: from + MAX_WINDOW }))!.messages);
  }
  return messages;
}
