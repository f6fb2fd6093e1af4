import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IMPORTERS, importerFor } from "../../../lib/trace/registry";
import { parseTrace } from "../../../lib/trace/parse-trace";
import type { FormatId, ParseIssue, ParseResult, Session } from "../../../lib/trace/model";
import { SourceError, sourceFromText, type TraceSource } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";

/** Longest a single parse may take before the fuzzer calls it a hang. */
export const MAX_PARSE_MS = 2000;

/**
 * What the fuzzer runs for every case. Byte inputs go through a real file and `sourceFromFile`,
 * the path every upload and CLI import takes, so invalid UTF-8, BOMs and CRLF reach the importers
 * exactly as production sees them. Generated traces (valid UTF-8, LF, final newline, which
 * `sourceFromFile` would hand over unchanged) use the faster in-memory `sourceFromText`.
 */
const dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "tracefold-fuzz-"));
let counter = 0;

/** Totals across one test process, printed by the fuzz tests. */
export const stats = { cases: 0, sourceErrors: 0, withErrors: 0, clean: 0, slowestMs: 0 };

export interface CaseResult {
  /** Undefined when the source itself refused the file (`SourceError`, a located issue too). */
  result?: ParseResult;
  ms: number;
}

/**
 * Parses `bytes` named `name` as `format` and throws (failing the property) on anything but the
 * importer contract: only `SourceError` may escape, every issue is located (file + line in range
 * + message), sessions keep the model's invariants, the result serialises, and it took < 2 s.
 * Also runs every importer's `detect` on the head, and the auto-detected parse when detection
 * picks another importer, so mutated files exercise the importer they end up routed to.
 */
export async function checkParse(name: string, input: Uint8Array | string, format: FormatId): Promise<CaseResult> {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const source = typeof input === "string" ? sourceFromText(name, input) : await fileSource(name, bytes);
  const lineCount = countLines(bytes);
  for (const importer of IMPORTERS) {
    const score = importer.detect(name, source.head);
    if (!(score >= 0 && score <= 1)) throw new Error(`${importer.format}.detect returned ${score}`);
  }
  stats.cases += 1;
  const started = performance.now();
  let result: ParseResult | undefined;
  try {
    result = await importerFor(format).parse(source);
  } catch (error) {
    if (!(error instanceof SourceError)) throw new Error(`${format} threw ${describeError(error)}`);
    if (!Number.isInteger(error.line) || error.line < 1 || error.line > lineCount) throw new Error(`SourceError at line ${error.line} of ${lineCount}`);
    stats.sourceErrors += 1;
  }
  const ms = performance.now() - started;
  stats.slowestMs = Math.max(stats.slowestMs, ms);
  if (ms > MAX_PARSE_MS) throw new Error(`${format} took ${ms.toFixed(0)} ms (limit ${MAX_PARSE_MS})`);
  if (result) {
    checkResult(result, name, lineCount);
    if (result.issues.some((i) => i.severity === "error")) stats.withErrors += 1;
    else stats.clean += 1;
  }
  const detected = await parseTrace(source);
  if (detected.format !== format && detected.format !== "unknown") {
    if (detected.issues.some((i) => /^importer \S+ failed/.test(i.message)))
      throw new Error(`auto-detected ${detected.format} failed: ${detected.issues.map((i) => i.message).join("; ")}`);
    checkResult(detected as ParseResult, name, lineCount);
  }
  return { ...(result ? { result } : {}), ms };
}

async function fileSource(name: string, bytes: Uint8Array): Promise<TraceSource> {
  const path = join(dir, `case-${counter++ % 8}`);
  writeFileSync(path, bytes);
  return sourceFromFile(path, name);
}

/** The importer contract on one result; throws with the first violation. */
export function checkResult(result: ParseResult, name: string, lineCount: number): void {
  for (const issue of result.issues) checkIssue(issue, name, lineCount);
  const ids = new Set<string>();
  for (const session of result.sessions) {
    if (ids.has(session.id)) throw new Error(`duplicate session id ${session.id}`);
    ids.add(session.id);
    checkSession(session, name, lineCount);
  }
  JSON.stringify(result);
}

function checkIssue(issue: ParseIssue, name: string, lineCount: number): void {
  const where = `issue ${JSON.stringify(issue)}`;
  if (issue.file !== name) throw new Error(`${where}: file is not ${name}`);
  if (!Number.isInteger(issue.line) || issue.line < 1 || issue.line > lineCount) throw new Error(`${where}: line outside 1..${lineCount}`);
  if (typeof issue.message !== "string" || !issue.message.trim()) throw new Error(`${where}: empty message`);
  if (issue.field !== undefined && typeof issue.field !== "string") throw new Error(`${where}: field is not a string`);
  if (issue.severity !== "error" && issue.severity !== "warning") throw new Error(`${where}: bad severity`);
}

function checkSession(session: Session, name: string, lineCount: number): void {
  if (typeof session.id !== "string" || !session.id) throw new Error("session without id");
  if (typeof session.title !== "string") throw new Error(`session ${session.id}: title is not a string`);
  const callIds = new Set<string>();
  session.messages.forEach((message, i) => {
    if (message.index !== i) throw new Error(`session ${session.id}: message ${i} has index ${message.index}`);
    if (message.source.file !== name || message.source.line < 1 || message.source.line > lineCount) {
      throw new Error(`session ${session.id}: message ${i} source ${JSON.stringify(message.source)} outside 1..${lineCount}`);
    }
    if (message.records) checkRecords(message, `session ${session.id}: message ${i}`, lineCount);
    for (const part of message.parts) {
      if (part.type === "tool_call") {
        if (typeof part.id !== "string" || typeof part.name !== "string" || typeof part.arguments !== "string")
          throw new Error(`session ${session.id}: malformed tool_call ${JSON.stringify(part)}`);
        callIds.add(part.id);
      } else if (part.type === "tool_result") {
        if (typeof part.content !== "string" || typeof part.callId !== "string") throw new Error(`session ${session.id}: malformed tool_result`);
        if (!part.orphan && !callIds.has(part.callId))
          throw new Error(`session ${session.id}: tool_result ${part.callId} has no earlier call and is not flagged orphan`);
      } else if ((part.type === "text" || part.type === "reasoning") && typeof part.text !== "string") {
        throw new Error(`session ${session.id}: ${part.type} part without text`);
      }
    }
  });
  for (const compaction of session.compactions) {
    if (compaction.beforeMessage < 0 || compaction.beforeMessage > session.messages.length)
      throw new Error(`session ${session.id}: compaction at ${compaction.beforeMessage}`);
  }
}

/** A merged message lists its records from its own source line on, in file order, covering every part once. */
function checkRecords(message: Session["messages"][number], where: string, lineCount: number): void {
  const records = message.records!;
  if (records.length < 2) throw new Error(`${where}: records listed for a single record`);
  if (records[0]!.line !== message.source.line) throw new Error(`${where}: first record ${records[0]!.line} is not the source line ${message.source.line}`);
  records.forEach((r, k) => {
    if (!Number.isInteger(r.line) || r.line < 1 || r.line > lineCount) throw new Error(`${where}: record line ${r.line} outside 1..${lineCount}`);
    if (k > 0 && r.line <= records[k - 1]!.line) throw new Error(`${where}: record lines not increasing`);
    if (!Number.isInteger(r.parts) || r.parts < 0) throw new Error(`${where}: record part count ${r.parts}`);
  });
  const total = records.reduce((n, r) => n + r.parts, 0);
  if (total !== message.parts.length) throw new Error(`${where}: records give ${total} parts, the message has ${message.parts.length}`);
}

/** Lines as the sources count them: newlines + 1 (a trailing partial line counts). */
export function countLines(bytes: Uint8Array): number {
  let n = 1;
  for (const b of bytes) if (b === 10) n++;
  return n;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack?.split("\n").slice(1, 6).join("\n")}` : String(error);
}
