import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { OtlpTraceRequestSchema } from "../../lib/ingest/otlp/otlp-request";
import { receivedSpans } from "../../lib/ingest/otlp/received-span";
import { createDb, type Db } from "../../server/db/client";
import { otlpUploadSha } from "../../server/ingest/otlp/rebuild-otlp-session";
import { redactSpans } from "../../server/ingest/otlp/redact-spans";
import { storeOtlpSpans } from "../../server/ingest/otlp/store-otlp-spans";
import { deleteSession } from "../../server/ingest/retention/delete-session";
import type { BlobStore } from "../../server/storage/blob-store";
import { agentLoopSpans, otlpRequest } from "../helpers/otlp-spans";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

for (const engine of ENGINES) {
  describe(`OTLP span storage on ${engine}`, () => {
    let t: TestDb;
    let second: Db;
    before(async () => {
      t = await createTestDb(engine);
      second = createDb(t.url);
    });
    after(async () => {
      await second.$disconnect();
      await t.close();
    });

    const deliver = async (spans: unknown[], options: { db?: Db; store?: BlobStore } = {}) => {
      const db = options.db ?? t.db;
      const received = receivedSpans(OtlpTraceRequestSchema.parse(otlpRequest(spans)));
      return storeOtlpSpans({ db, engine, store: options.store ?? t.store, spans: await redactSpans(db, received) });
    };
    /** The stored session of a key: its row and its messages' role and parts, in order. */
    const sessionOf = async (key: string) => {
      const upload = await t.db.upload.findUnique({
        where: { sha256: otlpUploadSha(key) },
        include: { sessions: { include: { messages: { orderBy: { index: "asc" } } } } },
      });
      const session = upload?.sessions[0];
      return (
        session && {
          id: session.id,
          externalId: session.externalId,
          messageCount: session.messageCount,
          messages: session.messages.map((m) => `${m.role}:${m.parts}`),
        }
      );
    };

    test("the same spans delivered twice store once and leave the same session", async () => {
      const spans = agentLoopSpans({ conversationId: "twice", idPrefix: "c1", traceId: "c1".repeat(16) });
      const first = await deliver(spans);
      assert.equal(first.stored, 4);
      const before = await sessionOf("conversation:twice");
      assert.equal(before?.messageCount, 4);
      const again = await deliver(spans);
      assert.deepEqual([again.stored, again.duplicates], [0, 4]);
      assert.deepEqual(await sessionOf("conversation:twice"), before);
      assert.equal(await t.db.otlpSpan.count({ where: { traceId: "c1".repeat(16) } }), 4);
    });

    test("spans delivered out of order, one per request, converge to the in-order session (same row id kept)", async () => {
      const inOrder = agentLoopSpans({ conversationId: "ordered", idPrefix: "d1", traceId: "d1".repeat(16) });
      await deliver(inOrder);
      const expected = (await sessionOf("conversation:ordered"))!;
      // The same loop under another conversation, its spans arriving last to first; the agent span
      // naming the conversation arrives last, so until then the spans sit in the trace's session.
      const shuffled = agentLoopSpans({ conversationId: "reversed", idPrefix: "d1", traceId: "d2".repeat(16) }).reverse();
      const ids: string[] = [];
      for (const span of shuffled) {
        await deliver([span]);
        const current = (await sessionOf("conversation:reversed")) ?? (await sessionOf(`trace:${"d2".repeat(16)}`));
        if (current) ids.push(current.id);
      }
      const final = (await sessionOf("conversation:reversed"))!;
      assert.deepEqual(final.messages, expected.messages);
      assert.equal(final.externalId, "reversed");
      assert.equal(await sessionOf(`trace:${"d2".repeat(16)}`), undefined, "the trace's interim session is gone once the conversation is known");
      assert.ok(ids.length >= 2);
    });

    test("a rebuild is atomic: a failure part-way leaves the previous session and stores no span", async () => {
      const spans = agentLoopSpans({ conversationId: "atomic", idPrefix: "e1", traceId: "e1".repeat(16) });
      await deliver(spans.slice(0, 3));
      const before = (await sessionOf("conversation:atomic"))!;
      assert.equal(before.messageCount, 3);
      const failing: BlobStore = {
        ...t.store,
        putBytes: async () => {
          throw new Error("disk full");
        },
      };
      await assert.rejects(deliver(spans.slice(3), { store: failing }), /disk full/);
      assert.deepEqual(await sessionOf("conversation:atomic"), before);
      assert.equal(await t.db.otlpSpan.count({ where: { traceId: "e1".repeat(16) } }), 3);
      await deliver(spans.slice(3));
      assert.equal((await sessionOf("conversation:atomic"))!.messageCount, 4);
    });

    // PostgreSQL: two clients stand for two studio processes. SQLite: one client (one process's
    // requests in flight together); several processes on one SQLite file are not a supported setup.
    test("two requests delivering halves of one conversation at once lose nothing", async () => {
      const first = agentLoopSpans({ conversationId: "concurrent", idPrefix: "f1", traceId: "f1".repeat(16) });
      const history = [
        { role: "user", parts: [{ type: "text", content: "What is the weather in Paris?" }] },
        { role: "assistant", parts: [{ type: "tool_call", id: "call_f1", name: "get_weather", arguments: { city: "Paris" } }] },
        { role: "tool", parts: [{ type: "tool_call_response", id: "call_f1", response: "18°C, cloudy" }] },
        { role: "assistant", parts: [{ type: "text", content: "It is 18°C and cloudy in Paris." }] },
      ];
      const later = agentLoopSpans({ conversationId: "concurrent", idPrefix: "f2", traceId: "f2".repeat(16), question: "And in Rome?", history }).map((s) => ({
        ...s,
        startTimeUnixNano: String(BigInt(s.startTimeUnixNano) + 60_000_000_000n),
      }));
      await Promise.all([deliver(first), deliver(later, { db: engine === "postgres" ? second : t.db })]);
      assert.equal((await sessionOf("conversation:concurrent"))!.messageCount, 8);
      assert.equal(await t.db.upload.count({ where: { sha256: otlpUploadSha("conversation:concurrent") } }), 1);
    });

    test("deleting an OTLP session deletes its spans, so a later delivery does not bring it back", async () => {
      const spans = agentLoopSpans({ conversationId: "erase", idPrefix: "b7", traceId: "b7".repeat(16) });
      await deliver(spans.slice(0, 3));
      const session = (await sessionOf("conversation:erase"))!;
      const outcome = await deleteSession(t.db, t.store, session.id, { freshMs: 0 });
      assert.equal(outcome.ok, true);
      assert.equal(await t.db.otlpSpan.count({ where: { sessionKey: "conversation:erase" } }), 0);
      // The late span names no conversation and its trace's conversation span is gone: it stands alone.
      await deliver(spans.slice(3));
      assert.equal(await sessionOf("conversation:erase"), undefined);
      assert.equal(await t.db.otlpSpan.count({ where: { traceId: "b7".repeat(16) } }), 1);
    });

    test("secrets in span attributes are redacted before they are stored", async () => {
      const spans = agentLoopSpans({ conversationId: "secret", idPrefix: "a9", traceId: "a9".repeat(16), question: "my key is AKIAIOSFODNN7EXAMPLE ok?" });
      await deliver(spans);
      const stored = await t.db.otlpSpan.findMany({ where: { traceId: "a9".repeat(16) } });
      assert.ok(stored.every((s) => !s.payload.includes("AKIAIOSFODNN7EXAMPLE")));
      const session = (await sessionOf("conversation:secret"))!;
      assert.ok(session.messages[0]!.includes("[REDACTED:"), session.messages[0]);
    });
  });
}
