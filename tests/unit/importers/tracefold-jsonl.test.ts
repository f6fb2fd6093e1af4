import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { toTracefoldJsonl } from "../../../lib/trace/export-tracefold-jsonl";
import type { Importer } from "../../../lib/trace/importer";
import { aiderImporter } from "../../../lib/trace/importers/aider";
import { anthropicMessagesImporter } from "../../../lib/trace/importers/anthropic-messages";
import { openaiResponsesImporter } from "../../../lib/trace/importers/openai-responses";
import { otelGenaiImporter } from "../../../lib/trace/importers/otel-genai";
import { TracefoldLineSchema, tracefoldJsonlImporter, tracefoldLineJsonSchema } from "../../../lib/trace/importers/tracefold-jsonl";
import type { ParseIssue, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const ROOT = resolve(__dirname, "../../..");
const FIXTURES = resolve(ROOT, "tests/fixtures");
const fixture = (name: string) => resolve(FIXTURES, "tracefold-jsonl", name);
const parseFixture = async (name: string) => tracefoldJsonlImporter.parse(await sourceFromFile(fixture(name), name));
const importText = (text: string) => tracefoldJsonlImporter.parse(sourceFromText("trace.tracefold.jsonl", text));
const located = (issues: ParseIssue[]) => issues.map((i) => [i.line, i.field ?? null, i.expected ?? null]);
/** Messages as plain JSON without their source locations, merged records' lines included (the one thing a round trip changes). */
const comparable = (session: Session) =>
  JSON.parse(
    JSON.stringify({
      messages: session.messages.map(({ source: _source, records: _records, ...m }) => m),
      compactions: session.compactions.map(({ source: _source, ...c }) => c),
    }),
  );

describe("tracefold_jsonl: import", () => {
  it("two interleaved sessions, a default session, a compaction and derived fields", async () => {
    const { sessions, issues } = await parseFixture("two-sessions.tracefold.jsonl");
    assert.deepEqual(issues, []);
    const [login, docs] = sessions as [Session, Session];
    assert.equal(login.id, "fix-login");
    assert.equal(login.format, "tracefold_jsonl");
    assert.equal(login.title, "Fix the login redirect");
    assert.deepEqual(login.meta, { team: "web", sourceFormat: "openai_chat" });
    assert.equal(login.startedAt, "2025-03-02T09:14:00Z");
    assert.deepEqual(
      login.messages.map((m) => [m.index, m.role, m.source.line]),
      [
        [0, "system", 2],
        [1, "user", 3],
        [2, "assistant", 6],
        [3, "tool", 7],
        [4, "assistant", 9],
      ],
    );
    assert.deepEqual(
      login.compactions.map((c) => [c.beforeMessage, c.kind, c.preTokens, c.source.line]),
      [[4, "other", 120000, 8]],
    );
    assert.deepEqual(login.models, ["gpt-4.1"], "derived from message models");
    const result = login.messages[3]!.parts[0];
    assert.ok(result?.type === "tool_result" && result.name === "read_file" && !result.orphan, "result name derived from its call");
    assert.equal(docs.parentId, "fix-login");
    assert.equal(docs.messages[0]!.source.line, 5, "a message without `session` joins the last session line");
    assert.deepEqual(docs.messages[1]!.meta, { sidechain: true });
    const late = docs.messages[2]!.parts[0];
    assert.ok(late?.type === "tool_result" && late.orphan && late.isError, "an unknown callId is kept as an orphan");
  });

  it("every bad line is reported with its line, field path and what was expected; good lines still import", async () => {
    const { sessions, issues } = await parseFixture("invalid.tracefold.jsonl");
    assert.ok(issues.every((i) => i.severity === "error"));
    assert.deepEqual(located(issues), [
      [2, "role", '"system" | "user" | "assistant" | "tool"'],
      [2, "parts[0].text", "string"],
      [3, "parts[0].id", "a non-empty string"],
      [3, "parts[0].arguments", "string"],
      [3, "timestmap", "only the fields documented in docs/tracefold-jsonl.md"],
      [4, "type", '"session" | "message" | "compaction"'],
      [5, "session", "the id of an earlier session line"],
      [6, null, "one JSON object per line"],
      [7, "tracefold", '"1"'],
      [8, "id", "a session id unique within the file"],
      [9, "preTokens", ">= 0"],
      [10, null, '{"type": "session" | "message" | "compaction", …}'],
    ]);
    assert.deepEqual(
      sessions.map((s) => [s.id, s.messages.map((m) => m.source.line)]),
      [["s1", [11]]],
    );
  });

  it("a file without any session line says what the first line should be", async () => {
    const { issues } = await importText('{"type":"message","role":"user","parts":[]}\n');
    assert.deepEqual(located(issues), [[1, "session", "the id of an earlier session line"]]);
    const empty = await importText("");
    assert.match(empty.issues[0]!.expected ?? "", /"tracefold":"1"/);
  });

  it("the example in docs/tracefold-jsonl.md imports cleanly", async () => {
    const doc = readFileSync(resolve(ROOT, "docs/tracefold-jsonl.md"), "utf8");
    const example = /```jsonl\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(example);
    const { sessions, issues } = await importText(example);
    assert.deepEqual(issues, []);
    assert.equal(sessions[0]!.messages.length, 5);
    assert.equal(sessions[0]!.compactions.length, 1);
  });
});

describe("tracefold_jsonl: JSON Schema", () => {
  it("docs/tracefold-jsonl.schema.json is the schema generated from the zod line schema", () => {
    const checkedIn = JSON.parse(readFileSync(resolve(ROOT, "docs/tracefold-jsonl.schema.json"), "utf8"));
    assert.deepEqual(
      checkedIn,
      tracefoldLineJsonSchema(),
      "regenerate with: npx tsx -e 'import { tracefoldLineJsonSchema } from \"./lib/trace/importers/tracefold-jsonl\"; console.log(JSON.stringify(tracefoldLineJsonSchema(), null, 2))' > docs/tracefold-jsonl.schema.json",
    );
    assert.equal(checkedIn.$schema, "https://json-schema.org/draft/2020-12/schema");
  });
});

/** A session using every part type, meta and usage, with compactions first and last. */
function handBuiltSession(): Session {
  const source = { file: "hand.json", line: 1 };
  return {
    id: "hand-1",
    format: "anthropic_messages",
    title: "Every part type",
    startedAt: "2025-06-01T12:00:00",
    models: ["model-a", "model-b"],
    usage: { inputTokens: 10, outputTokens: 20 },
    parentId: "root",
    meta: { agent: "tester", retries: 2, sidechain: false },
    messages: [
      { index: 0, role: "system", parts: [{ type: "text", text: "sys" }], source },
      {
        index: 1,
        role: "user",
        parts: [
          { type: "text", text: "look" },
          { type: "image", mediaType: "image/png", bytes: 99 },
          { type: "other", kind: "document", text: "a.pdf" },
        ],
        source,
        timestamp: "2025-06-01T12:00:01Z",
      },
      {
        index: 2,
        role: "assistant",
        parts: [
          { type: "reasoning", text: "hmm" },
          { type: "tool_call", id: "t1", name: "grep", arguments: '{"q":"x"}' },
        ],
        source,
        model: "model-a",
        usage: { inputTokens: 5, cachedInputTokens: 3, cacheWriteTokens: 1, outputTokens: 2 },
      },
      { index: 3, role: "tool", parts: [{ type: "tool_result", callId: "t1", name: "grep", content: "1 hit", isError: false }], source },
      { index: 4, role: "tool", parts: [{ type: "tool_result", callId: "zz", content: "orphan", orphan: true }], source, meta: { late: true } },
      { index: 5, role: "assistant", parts: [{ type: "text", text: "done" }], source, model: "model-b" },
    ],
    compactions: [
      { kind: "claude_code_compact_boundary", beforeMessage: 0, trigger: "manual", preTokens: 1000, source },
      { kind: "codex_compacted", beforeMessage: 3, summary: "so far", timestamp: "2025-06-01T12:00:02Z", source },
      { kind: "other", beforeMessage: 6, source },
    ],
  };
}

async function roundTrip(sessions: Session[]): Promise<Session[]> {
  const text = toTracefoldJsonl(sessions);
  for (const [i, line] of text.trimEnd().split("\n").entries()) {
    assert.ok(TracefoldLineSchema.safeParse(JSON.parse(line)).success, `exported line ${i + 1} validates`);
  }
  const { sessions: back, issues } = await importText(text);
  assert.deepEqual(issues, []);
  return back;
}

function assertSameSessions(back: Session[], original: Session[]): void {
  assert.equal(back.length, original.length);
  original.forEach((session, i) => {
    const copy = back[i]!;
    assert.deepEqual(comparable(copy), comparable(session), `${session.id}: messages and compactions`);
    assert.equal(copy.id, session.id);
    assert.equal(copy.title, session.title);
    assert.deepEqual(copy.models, session.models);
    assert.equal(copy.startedAt, session.startedAt);
    assert.equal(copy.parentId, session.parentId);
    assert.deepEqual(copy.usage, session.usage);
    assert.deepEqual(copy.meta, { ...session.meta, sourceFormat: session.format }, "the original format is kept in meta");
  });
}

describe("tracefold_jsonl: export and round trip", () => {
  it("a hand-built session with every part type survives export → import", async () => {
    const original = handBuiltSession();
    const text = toTracefoldJsonl([original]);
    const lines = text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.ok(text.endsWith("\n"));
    assert.deepEqual(
      lines.map((l) => l.type),
      ["session", "compaction", "message", "message", "message", "compaction", "message", "message", "message", "compaction"],
    );
    assert.equal(lines[0].sourceFormat, "anthropic_messages");
    const parts = lines.flatMap((l) => l.parts ?? []);
    assert.ok(lines.every((l) => !("index" in l) && !("source" in l)) && parts.every((p) => !("orphan" in p)), "derived fields are not written");
    assertSameSessions(await roundTrip([original]), [original]);
  });

  it("re-exporting an imported Tracefold file keeps its original format", async () => {
    const { sessions } = await parseFixture("two-sessions.tracefold.jsonl");
    const again = await roundTrip(sessions);
    assert.deepEqual(again.map(comparable), sessions.map(comparable));
    assert.deepEqual(again[0]!.meta, { team: "web", sourceFormat: "openai_chat" });
  });

  const manifest = readManifest();
  const realCases: [string, () => Promise<Importer | undefined>][] = [
    ["otel_genai_spans", async () => otelGenaiImporter],
    ["aider_chat_md", async () => aiderImporter],
    ["tau_bench_traj", async () => (await import("../../../lib/trace/importers/tau-bench").catch(() => undefined))?.tauBenchImporter],
    ["claude_code_jsonl", async () => (await import("../../../lib/trace/importers/claude-code").catch(() => undefined))?.claudeCodeImporter],
  ];
  for (const [format, load] of realCases) {
    for (const row of manifest.filter((r) => r.format === format).slice(0, 2)) {
      it(`real trace round trip: ${row.path}`, async (t) => {
        const importer = await load();
        if (!importer) return t.skip(`no ${format} importer yet`);
        const { sessions } = await importer.parse(await sourceFromFile(row.absolutePath, row.path));
        assert.ok(sessions.length > 0);
        assertSameSessions(await roundTrip(sessions), sessions);
      });
    }
  }

  it("a Claude Code session with its native auto-compaction keeps the compaction in place", async (t) => {
    const module = await import("../../../lib/trace/importers/claude-code").catch(() => undefined);
    const row = manifest.find((r) => r.path.endsWith("258c7280-ae70-4798-800f-63464d01a85d.jsonl"));
    if (!module || !row) return t.skip("no Claude Code importer or file");
    const { sessions } = await module.claudeCodeImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    assert.ok(
      sessions.some((s) => s.compactions.length > 0),
      "the file has a compaction",
    );
    assertSameSessions(await roundTrip(sessions), sessions);
  });

  it("generic-format fixtures round trip too", async () => {
    for (const [importer, path] of [
      [anthropicMessagesImporter, "anthropic-messages/pair.json"],
      [openaiResponsesImporter, "openai-responses/items-array.json"],
    ] as const) {
      const { sessions } = await importer.parse(await sourceFromFile(resolve(FIXTURES, path), path));
      assertSameSessions(await roundTrip(sessions), sessions);
    }
  });
});

describe("tracefold_jsonl: detection", () => {
  it("recognises its first line or its extension, and nothing in the MANIFEST", async () => {
    const { head } = await sourceFromFile(fixture("two-sessions.tracefold.jsonl"));
    assert.ok(tracefoldJsonlImporter.detect("x.jsonl", head) >= 0.95);
    assert.ok(tracefoldJsonlImporter.detect("export.tracefold.jsonl", "") >= 0.9);
    for (const row of readManifest()) {
      assert.equal(tracefoldJsonlImporter.detect(row.path, (await sourceFromFile(row.absolutePath, row.path)).head), 0, row.path);
    }
  });
});
