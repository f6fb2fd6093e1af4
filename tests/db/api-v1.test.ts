import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { otlpChatSpanId, otlpTraceId } from "../../lib/trace/export-otlp-ids";
import { otelGenaiImporter } from "../../lib/trace/importers/otel-genai";
import { tracefoldJsonlImporter } from "../../lib/trace/importers/tracefold-jsonl";
import type { Session } from "../../lib/trace/model";
import { sourceFromText } from "../../lib/trace/source";
import { exportSession } from "../../server/ingest/api-v1/export-session";
import { getSessionSummary, listSessionsPage } from "../../server/ingest/api-v1/list-sessions-page";
import { SessionListQuerySchema } from "../../server/ingest/api-v1/schemas";
import { startRun } from "../../server/ingest/api-v1/start-run";
import { sessionSpanAnnotations } from "../../server/review/session-span-annotations";
import { loadAnalyzedSession } from "../../server/trace/session/load-analyzed-session";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** Three real Aider sessions in one file, and one real Claude Code session. */
const AIDER = join(TRACES_DIR, "aider_chat_md/AlexShchuka__mozgoslav/.aider.chat.history.md");
const CLAUDE = join(TRACES_DIR, "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/hello-world-script/transcript.jsonl");

const query = (q: Record<string, string>) => SessionListQuerySchema.parse(q);
const comparable = (s: Session) => JSON.parse(JSON.stringify(s.messages.map(({ source: _s, records: _r, index: _i, ...m }) => m)));

for (const engine of ENGINES) {
  describe(`REST API v1 on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
      for (const path of [AIDER, CLAUDE]) assert.equal((await importTraceFile({ db: t.db, store: t.store, path })).status, "imported");
    });
    after(() => t.close());

    test("pages of 1 walk every session once, newest first, and end with a null cursor", async () => {
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await listSessionsPage(t.db, query({ limit: "1", ...(cursor ? { cursor } : {}) }));
        assert.ok(page.ok);
        assert.ok(page.data.length <= 1);
        seen.push(...page.data.map((s) => s.id));
        cursor = page.nextCursor;
      } while (cursor);
      const all = await listSessionsPage(t.db, query({ limit: "500" }));
      assert.ok(all.ok);
      assert.equal(all.data.length, 4);
      assert.deepEqual(
        seen,
        all.data.map((s) => s.id),
      );
      assert.equal(all.nextCursor, null);
      assert.equal(all.data[0]!.format, "claude_code_jsonl", "the last import first");
    });

    test("q matches titles and external ids case-insensitively; format filters", async () => {
      const claude = await listSessionsPage(t.db, query({ format: "claude_code_jsonl" }));
      assert.ok(claude.ok);
      assert.equal(claude.data.length, 1);
      const externalId = claude.data[0]!.externalId;
      const byId = await listSessionsPage(t.db, query({ q: externalId.slice(0, 8).toUpperCase() }));
      assert.ok(byId.ok);
      assert.ok(byId.data.some((s) => s.externalId === externalId));
      const none = await listSessionsPage(t.db, query({ q: "no session is called this" }));
      assert.ok(none.ok);
      assert.deepEqual(none.data, []);
    });

    test("a cursor the API did not give, and bad parameters, are located refusals", async () => {
      const bad = await listSessionsPage(t.db, query({ cursor: "not-a-cursor" }));
      assert.deepEqual(bad, { ok: false, code: "invalid_request", message: "cursor is not one this API gave (pass nextCursor of the previous page)" });
      const limit = SessionListQuerySchema.safeParse({ limit: "0" });
      assert.equal(limit.success ? "" : limit.error.issues[0]!.message, "limit must be at least 1");
      const format = SessionListQuerySchema.safeParse({ format: "word_doc" });
      assert.match(format.success ? "" : format.error.issues[0]!.message, /^format must be one of /);
    });

    test("a session's summary names its external id, counts and upload", async () => {
      const page = await listSessionsPage(t.db, query({ format: "claude_code_jsonl" }));
      assert.ok(page.ok);
      const summary = await getSessionSummary(t.db, page.data[0]!.id);
      assert.deepEqual(summary, page.data[0]);
      assert.equal(summary!.fileName, "transcript.jsonl");
      assert.equal(await getSessionSummary(t.db, "no-such-session"), null);
    });

    test("the JSONL export imports back into the same messages", async () => {
      const page = await listSessionsPage(t.db, query({ limit: "500" }));
      assert.ok(page.ok);
      for (const summary of page.data) {
        const exported = await exportSession(t.db, summary.id, "jsonl");
        assert.ok(exported);
        const parsed = await tracefoldJsonlImporter.parse(sourceFromText(exported.fileName, exported.text));
        assert.deepEqual(
          parsed.issues.filter((i) => i.severity === "error"),
          [],
        );
        assert.equal(parsed.sessions.length, 1);
        const stored = (await loadAnalyzedSession(t.db, summary.id))!.session;
        assert.deepEqual(comparable(parsed.sessions[0]!), comparable(stored), summary.title);
      }
      assert.equal(await exportSession(t.db, "no-such-session", "jsonl"), null);
    });

    test("the OTLP export imports back into the same conversation, with ids derived from the session", async () => {
      const page = await listSessionsPage(t.db, query({ limit: "500" }));
      assert.ok(page.ok);
      for (const summary of page.data) {
        const exported = await exportSession(t.db, summary.id, "otlp");
        assert.ok(exported);
        assert.equal(exported.fileName, `${summary.id}.otlp.json`);
        const request = JSON.parse(exported.text);
        const spans = request.resourceSpans[0].scopeSpans[0].spans as { traceId: string; attributes: { key: string; value: { stringValue?: string } }[] }[];
        assert.ok(spans.every((s) => s.traceId === otlpTraceId(summary.id)));
        assert.equal(spans[0]!.attributes.find((a) => a.key === "gen_ai.conversation.id")?.value.stringValue, summary.externalId);
        const parsed = await otelGenaiImporter.parse(sourceFromText(exported.fileName, exported.text));
        assert.deepEqual(
          parsed.issues.filter((i) => i.severity === "error"),
          [],
        );
        const stored = (await loadAnalyzedSession(t.db, summary.id))!.session;
        const conversation = (s: Session) =>
          s.messages.flatMap((m) =>
            m.parts.map((p) =>
              p.type === "tool_result"
                ? ["result", p.callId, p.content]
                : p.type === "tool_call"
                  ? ["call", p.id, p.name, p.arguments]
                  : p.type === "text"
                    ? ["text", p.text]
                    : [p.type],
            ),
          );
        assert.deepEqual(conversation(parsed.sessions[0]!), conversation(stored), summary.title);
      }
      assert.equal(await exportSession(t.db, "no-such-session", "otlp"), null);
    });

    test("review labels become span annotations on the spans of the OTLP export", async () => {
      const page = await listSessionsPage(t.db, query({ format: "claude_code_jsonl" }));
      assert.ok(page.ok);
      const sessionId = page.data[0]!.id;
      assert.deepEqual(await sessionSpanAnnotations(t.db, sessionId), { data: [] }, "nothing labelled yet");
      const stored = (await loadAnalyzedSession(t.db, sessionId))!.session;
      const cut = stored.messages.findIndex((m) => m.role === "assistant") + 1;
      const queue = await t.db.reviewQueue.create({ data: { name: "span export", kind: "failure" } });
      const itemKey = `failure:run|${sessionId}@${cut}`;
      await t.db.reviewItem.create({ data: { queueId: queue.id, itemKey, position: 0, sessionId, cut, payload: "{}" } });
      const base = {
        kind: "failure_category",
        labelId: "thread-1",
        reviewer: "ann@example.com",
        ref: { sessionId, cut, runId: "run" },
        policy: "tool-prune",
        category: "evidence_detail",
        culpritId: "function:Read:1",
      } as const;
      const versions = [
        { ...base, version: 1, supersedes: null, createdAt: "2026-11-26T10:00:00.000Z" },
        { ...base, version: 2, supersedes: 1, createdAt: "2026-11-26T10:05:00.000Z", category: "locator_handle", comment: "the path was folded" },
        { ...base, labelId: "thread-2", version: 1, supersedes: null, createdAt: "2026-11-26T10:06:00.000Z" },
        { ...base, labelId: "thread-2", version: 2, supersedes: 1, createdAt: "2026-11-26T10:07:00.000Z", retracted: true },
      ];
      for (const label of versions) {
        await t.db.reviewLabelRow.create({
          data: {
            queueId: queue.id,
            itemKey,
            labelId: label.labelId,
            version: label.version,
            kind: label.kind,
            reviewerId: "u1",
            reviewer: label.reviewer,
            body: JSON.stringify(label),
            createdAt: new Date(label.createdAt),
          },
        });
      }
      const annotations = await sessionSpanAnnotations(t.db, sessionId);
      assert.equal(annotations?.data.length, 1, "the latest version of each thread; retracted threads left out");
      const [annotation] = annotations!.data;
      const exported = JSON.parse((await exportSession(t.db, sessionId, "otlp"))!.text);
      const next = stored.messages.find((m) => m.index >= cut && m.role === "assistant")!;
      const span = exported.resourceSpans[0].scopeSpans[0].spans.find((s: { spanId: string }) => s.spanId === annotation!.span_id);
      assert.ok(span, "the annotation points at a span of the OTLP export");
      assert.equal(span.spanId, otlpChatSpanId(sessionId, next.index), "the model call right after the cut");
      assert.deepEqual(
        { ...annotation, metadata: { ...annotation!.metadata } },
        {
          span_id: span.spanId,
          name: "failure_category",
          annotator_kind: "HUMAN",
          result: { label: "locator_handle", explanation: "the path was folded" },
          identifier: "thread-1",
          metadata: {
            source: "tracefold",
            labelId: "thread-1",
            version: 2,
            reviewer: "ann@example.com",
            createdAt: "2026-11-26T10:05:00.000Z",
            cut,
            runId: "run",
            comment: "the path was folded",
            queueId: queue.id,
            queueName: "span export",
            queueKind: "failure",
            policy: "tool-prune",
            culpritId: "function:Read:1",
          },
        },
      );
      assert.equal(await sessionSpanAnnotations(t.db, "no-such-session"), null);
    });

    test("a run starts from the studio's settings; bad settings are located", async () => {
      const settings = {
        suite: { kind: "filter", filter: { formats: ["aider_chat_md"] } },
        policies: [{ id: "none" }, { id: "tool-prune" }],
        judge: "dependency",
        triggerLevel: 0.9,
      };
      const started = await startRun(t.db, { name: "api run", settings }, null);
      assert.ok(started.ok, JSON.stringify(started));
      assert.equal((await t.db.evalRun.findUniqueOrThrow({ where: { id: started.runId } })).name, "api run");
      const refused = await startRun(t.db, { settings: { policies: "all" } }, null);
      assert.equal(refused.ok ? "" : refused.code, "invalid_settings");
    });
  });
}
