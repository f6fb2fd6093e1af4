import assert from "node:assert/strict";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import type { Part, Session } from "../../../lib/trace/model";
import { detectFormat, parseTrace } from "../../../lib/trace/parse-trace";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { TRACES_NEW_DIR } from "../../helpers/traces";
import { COVERED_SOURCE_FORMATS, NEW_TRACE_COUNTS, REFUSED_NEW_TRACES, readNewManifest, readNewManifestRows } from "../../helpers/traces-new";

/**
 * The real traces of ../shared/traces-new in the formats Tracefold imports (issue 15, item 5): each
 * one is auto-detected and imports with the exact counts read from its own structure
 * (tests/helpers/traces-new.ts), without an error; the one refused file is refused with its reason.
 */
const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));

describe("traces-new: every file of the covered source formats", () => {
  it("is either imported with exact counts or refused with a reason", () => {
    const rows = readNewManifestRows().filter((r) => COVERED_SOURCE_FORMATS.includes(r.sourceFormat));
    assert.ok(rows.length >= 11);
    for (const row of rows) assert.ok(row.path in NEW_TRACE_COUNTS || row.path in REFUSED_NEW_TRACES, `${row.path} has no exact counts`);
    assert.equal(Object.keys(NEW_TRACE_COUNTS).length + Object.keys(REFUSED_NEW_TRACES).length, rows.length);
  });

  for (const entry of readNewManifest()) {
    it(entry.path, async () => {
      const source = await sourceFromFile(entry.absolutePath, entry.path);
      assert.equal(detectFormat(entry.path, source.head)?.format, entry.format);
      const { format, sessions, issues } = await parseTrace(source);
      assert.equal(format, entry.format);
      assert.deepEqual(
        issues.filter((i) => i.severity === "error"),
        [],
      );
      assert.equal(sessions.length, entry.sessions, "sessions");
      assert.equal(
        sessions.reduce((n, s) => n + s.messages.length, 0),
        entry.messages,
        "messages",
      );
      assert.equal(partsOf(sessions, "tool_call").length, entry.toolCalls, "tool calls");
      assert.equal(partsOf(sessions, "tool_result").length, entry.toolResults, "tool results");
      assert.deepEqual([...new Set(sessions.flatMap((s) => s.models))], entry.models, "models");
      assert.equal(new Set(sessions.map((s) => s.id)).size, sessions.length, "session ids are unique");
    });
  }

  for (const [path, refusal] of Object.entries(REFUSED_NEW_TRACES)) {
    it(`${path} is recognised and refused`, async () => {
      const source = await sourceFromFile(resolve(TRACES_NEW_DIR, path), path);
      assert.equal(detectFormat(path, source.head)?.format, refusal.format);
      const { sessions, issues } = await parseTrace(source);
      assert.equal(sessions.length, 0);
      assert.equal(issues.length, 1);
      assert.equal(issues[0]!.severity, "error");
      assert.match(issues[0]!.message, refusal.message);
    });
  }
});
