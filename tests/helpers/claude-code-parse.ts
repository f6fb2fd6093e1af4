import type { ParseIssue, Part, Session } from "../../lib/trace/model";
import type { TraceSource } from "../../lib/trace/source";
import { claudeCodeImporter } from "../../lib/trace/importers/claude-code";
import { readManifest } from "./traces";

/*
 * What tests/unit/importers/claude-code-*.test.ts share: the parse they run, the MANIFEST rows they
 * check, and the records they build small transcripts from.
 */
type ParseTraceModule = typeof import("../../lib/trace/parse-trace");
let registry: Promise<ParseTraceModule | undefined> | undefined;

/**
 * The registry imports every importer, and some are still being written: when it does not load,
 * these tests call the importer directly and skip only the registry-level assertions.
 */
export function loadRegistry(): Promise<ParseTraceModule | undefined> {
  registry ??= import("../../lib/trace/parse-trace").catch(() => undefined);
  return registry;
}

/** Parses as claude_code_jsonl through the registry, or the importer itself when the registry does not load. */
export async function parseClaudeCodeTrace(source: TraceSource): Promise<{ sessions: Session[]; issues: ParseIssue[] }> {
  const loaded = await loadRegistry();
  return loaded ? loaded.parseTrace(source, { format: "claude_code_jsonl" }) : claudeCodeImporter.parse(source);
}

export const manifest = readManifest();
export const claudeRows = manifest.filter((row) => row.format === "claude_code_jsonl");
export const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
export const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));
export const jsonl = (...records: unknown[]) => records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";

/** A user record of session s-1. */
export const userRecord = (content: unknown, extra: object = {}) => ({
  type: "user",
  sessionId: "s-1",
  parentUuid: null,
  timestamp: "2026-01-01T00:00:00Z",
  message: { role: "user", content },
  ...extra,
});
/** An assistant record of session s-1 (claude-opus-4-6). */
export const assistantRecord = (content: unknown[], extra: object = {}) => ({
  type: "assistant",
  sessionId: "s-1",
  parentUuid: "u",
  message: { role: "assistant", model: "claude-opus-4-6", content, ...extra },
});
/** A Bash tool call, toolu_1. */
export const BASH_CALL = { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } };
