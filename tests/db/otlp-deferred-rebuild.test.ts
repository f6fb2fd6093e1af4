import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { OtlpTraceRequestSchema } from "../../lib/ingest/otlp/otlp-request";
import { receivedSpans } from "../../lib/ingest/otlp/received-span";
import { createDb, type Db } from "../../server/db/client";
import { loadAnalyzedSession } from "../../server/trace/session/load-analyzed-session";
import { rebuildDirtyOtlpSession } from "../../server/ingest/otlp/rebuild-dirty-otlp-session";
import { otlpUploadSha } from "../../server/ingest/otlp/rebuild-otlp-session";
import { redactSpans } from "../../server/ingest/otlp/redact-spans";
import { storeOtlpSpans } from "../../server/ingest/otlp/store-otlp-spans";
import { agentLoopSpans, otlpRequest } from "../helpers/otlp-spans";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

/**
 * A conversation of `turns` agent loops, each its own trace, every chat span repeating the whole
 * history as the semantic conventions send it; the agent span of each loop names the conversation.
 */
function longConversation(conversationId: string, turns: number, tracePrefix: string): ReturnType<typeof agentLoopSpans>[] {
  const history: unknown[] = [];
  const loops: ReturnType<typeof agentLoopSpans>[] = [];
  for (let k = 0; k < turns; k++) {
    const p = k.toString(16).padStart(2, "0");
    const question = `Question ${k}: what is the weather?`;
    const loop = agentLoopSpans({ conversationId, idPrefix: p, traceId: `${tracePrefix}${p}`.padEnd(32, "0"), question, history: [...history] }).map((s) => ({
      ...s,
      startTimeUnixNano: String(BigInt(s.startTimeUnixNano) + BigInt(k) * 60_000_000_000n),
    }));
    loops.push(loop);
    const callId = `call_${p}`;
    history.push(
      { role: "user", parts: [{ type: "text", content: question }] },
      { role: "assistant", parts: [{ type: "tool_call", id: callId, name: "get_weather", arguments: { city: "Paris" } }] },
      { role: "tool", parts: [{ type: "tool_call_response", id: callId, response: "18°C, cloudy" }] },
      { role: "assistant", parts: [{ type: "text", content: "It is 18°C and cloudy in Paris." }] },
    );
  }
  return loops;
}

/** A deterministic shuffle (mulberry32), so a failure replays. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

for (const engine of ENGINES) {
  describe(`OTLP sessions past TRACEFOLD_OTLP_SYNC_SPANS, rebuilt after the request, on ${engine}`, () => {
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

    const deliver = async (spans: unknown[], syncRebuildSpans?: number, db: Db = t.db) => {
      const received = receivedSpans(OtlpTraceRequestSchema.parse(otlpRequest(spans)));
      return storeOtlpSpans({ db, engine, store: t.store, spans: await redactSpans(db, received), syncRebuildSpans });
    };
    const sessionOf = async (key: string) => {
      const upload = await t.db.upload.findUnique({
        where: { sha256: otlpUploadSha(key) },
        include: { sessions: { include: { messages: { orderBy: { index: "asc" } } } } },
      });
      const session = upload?.sessions[0];
      return (
        session && { id: session.id, messageCount: session.messageCount, tokens: session.tokens, messages: session.messages.map((m) => `${m.role}:${m.parts}`) }
      );
    };
    /** Every marked session rebuilt, as the scheduler would; answers how many rebuilt. */
    const flush = async () => {
      let rebuilt = 0;
      for (const { sessionKey } of await t.db.otlpDirtySession.findMany()) if (await rebuildDirtyOtlpSession(t.db, engine, t.store, sessionKey)) rebuilt++;
      return rebuilt;
    };
    /** The session a single delivery of every span builds (inside the request, as before). */
    const reference = async (name: string, turns: number, prefix: string) => {
      await deliver(longConversation(name, turns, prefix).flat());
      return (await sessionOf(`conversation:${name}`))!;
    };

    test("a long session delivered loop by loop is rebuilt inside the request only while short, then once for all deferred batches", async () => {
      const turns = 24;
      const expected = await reference("ref-batches", turns, "a1");
      assert.equal(expected.messageCount, turns * 4);
      const loops = longConversation("batches", turns, "a2");
      const key = "conversation:batches";
      for (const [k, loop] of loops.entries()) {
        const result = await deliver(loop, 8);
        if (k < 2) {
          assert.deepEqual([result.sessions.length, result.deferred], [1, []], `loop ${k} is rebuilt inside its request (≤ 8 spans)`);
        } else {
          assert.deepEqual([result.stored, result.sessions, result.deferred], [4, [], [key]], `loop ${k} only marks the session`);
          assert.equal((await sessionOf(key))!.messageCount, 8, "no rebuild inside a request once the session is long");
        }
      }
      assert.deepEqual(
        (await t.db.otlpDirtySession.findMany()).map((m) => [m.sessionKey, m.generation]),
        [[key, turns - 2]],
      );
      assert.equal(await flush(), 1, "one rebuild for the 22 deferred deliveries");
      const rebuilt = (await sessionOf(key))!;
      assert.deepEqual({ ...rebuilt, id: "" }, { ...expected, id: "" }, "the same session as one delivery of every span");
      assert.equal(await t.db.otlpDirtySession.count(), 0);
      assert.equal(await rebuildDirtyOtlpSession(t.db, engine, t.store, key), false, "a clean key is not rebuilt again");
      const redelivered = await deliver(loops.flat(), 8);
      assert.deepEqual([redelivered.stored, redelivered.deferred, await t.db.otlpDirtySession.count()], [0, [], 0], "a redelivery marks nothing");
    });

    test("single spans in any order, redelivered, with rebuilds in between, converge to the one-delivery session", async () => {
      const turns = 12;
      const expected = await reference("ref-shuffled", turns, "b1");
      for (const seed of [1, 2, 3]) {
        const name = `shuffled-${seed}`;
        const spans = longConversation(name, turns, `b${seed + 1}`).flat();
        const order = shuffled([...spans, ...spans.slice(0, 5)], seed);
        for (const [i, span] of order.entries()) {
          await deliver([span], 0);
          if (i % 7 === 6) await flush();
        }
        await flush();
        const final = (await sessionOf(`conversation:${name}`))!;
        assert.deepEqual(final.messages, expected.messages, `seed ${seed}`);
        assert.equal(final.tokens, expected.tokens);
        for (const traceId of new Set(spans.map((s) => s.traceId)))
          assert.equal(await sessionOf(`trace:${traceId}`), undefined, "no interim trace session is left once its conversation is known");
        assert.equal(await t.db.otlpDirtySession.count(), 0);
      }
    });

    test("spans stored while a rebuild runs keep the session marked, so nothing is lost", async () => {
      const turns = 10;
      const expected = await reference("ref-racing", turns, "c1");
      const loops = longConversation("racing", turns, "c2");
      const key = "conversation:racing";
      await deliver(loops.slice(0, 4).flat(), 0);
      // PostgreSQL: another client stands for another studio process delivering during the rebuild.
      const db = engine === "postgres" ? second : t.db;
      await Promise.all([rebuildDirtyOtlpSession(t.db, engine, t.store, key), ...loops.slice(4).map((loop) => deliver(loop, 0, db))]);
      await flush();
      assert.deepEqual((await sessionOf(key))!.messages, expected.messages);
      assert.equal(await t.db.otlpDirtySession.count(), 0);
    });

    test("a session opened before a rebuild is read again after it: the studio's cache never serves the shorter copy", async () => {
      const loops = longConversation("cached", 6, "d1");
      const key = "conversation:cached";
      for (const loop of loops.slice(0, 3)) await deliver(loop, 8);
      const id = (await sessionOf(key))!.id;
      const before = await loadAnalyzedSession(t.db, id);
      assert.equal(before!.session.messages.length, 8, "two loops built in their requests; the third is deferred");
      assert.equal(await loadAnalyzedSession(t.db, id), before, "unchanged: served from the cache");
      for (const loop of loops.slice(3)) await deliver(loop, 8);
      assert.equal(await flush(), 1);
      const after = await loadAnalyzedSession(t.db, id);
      assert.equal(after!.session.messages.length, 24, "the rebuilt session, not the cached one");
      assert.deepEqual(
        after!.session.messages.map((m) => m.role),
        (await sessionOf(key))!.messages.map((m) => m.split(":")[0]),
      );
    });
  });
}
