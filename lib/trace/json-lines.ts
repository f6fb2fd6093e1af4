import type { IssueList } from "./importer";
import { endOfJsonString, excessNestingAt, excessNestingMessage, MAX_JSON_DEPTH } from "./json-depth";
import { lastLineOf, truncationMessage, truncationOf } from "./json-truncation";
import type { TraceSource } from "./source";

/** One parsed JSONL record with its 1-based line number. */
export interface JsonLine {
  line: number;
  value: unknown;
}

/**
 * Streams the JSON records of a JSONL source. Blank lines are skipped; a line that is not valid
 * JSON becomes an issue (with the parser's reason and a short excerpt) and is skipped, so one
 * truncated line does not lose the rest of the file.
 */
export async function* readJsonLines(source: TraceSource, issues: IssueList): AsyncIterable<JsonLine> {
  let line = 0;
  // A bad line that is cut off (unclosed string or brackets) is reported once we know whether it
  // was the file's last: then the file ended early, which is what the user needs to hear.
  let pending: { line: number; error: unknown; text: string } | undefined;
  const flush = (atEnd: boolean) => {
    if (!pending) return;
    const truncation = atEnd ? truncationOf(pending.text) : undefined;
    if (truncation) issues.error(pending.line, truncationMessage(truncation, pending.line), undefined, "a complete last line");
    else issues.error(pending.line, `invalid JSON: ${reason(pending.error)} (line starts ${excerpt(pending.text)})`, undefined, "one JSON object per line");
    pending = undefined;
  };
  for await (const text of source.lines()) {
    line += 1;
    const trimmed = text.trim();
    if (!trimmed) continue;
    flush(false);
    if (refuseDeep(trimmed, issues, () => line)) continue;
    try {
      yield { line, value: JSON.parse(trimmed) };
    } catch (error) {
      pending = { line, error, text: trimmed };
    }
  }
  flush(true);
}

/**
 * Parses a whole-document JSON source. Returns undefined (and records an issue with the line of
 * the syntax error when the engine reports a position) when the text is not JSON.
 */
export async function readJsonDocument(source: TraceSource, issues: IssueList): Promise<unknown> {
  const text = await source.text();
  if (refuseDeep(text, issues, (offset) => lineAt(text, offset))) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    reportParseError(text, error, issues);
    return undefined;
  }
}

/**
 * Records a located issue and returns true when `text` nests deeper than `MAX_JSON_DEPTH`
 * (see json-depth.ts for why that is refused before parsing).
 */
function refuseDeep(text: string, issues: IssueList, lineOf: (offset: number) => number): boolean {
  const offset = excessNestingAt(text);
  if (offset === undefined) return false;
  issues.error(lineOf(offset), excessNestingMessage(offset), undefined, `JSON nested at most ${MAX_JSON_DEPTH} levels deep`);
  return true;
}

/** A whole document that does not parse: "the file ends early" when it is cut off, else the engine's reason at its line. */
function reportParseError(text: string, error: unknown, issues: IssueList): void {
  const truncation = truncationOf(text);
  if (truncation) {
    const last = lastLineOf(text);
    issues.error(last, truncationMessage(truncation, last), undefined, "a complete JSON document");
    return;
  }
  issues.error(lineOfError(text, error), `invalid JSON: ${reason(error)}`, undefined, "a JSON document");
}

/** 1-based line of character `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\s+/g, " ").slice(0, 160) : String(error);
}

function excerpt(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * Maps V8's "at position N" to a 1-based line of `text`. A final newline does not open a line of
 * its own, so "unexpected end of input" on a file ending in "\n" points at its last line.
 */
export function lineOfError(text: string, error: unknown): number {
  const match = /position (\d+)/.exec(error instanceof Error ? error.message : "");
  if (!match) return 1;
  const position = Number(match[1]);
  let line = 1;
  for (let i = 0; i < position && i < text.length - 1; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Narrowing helpers shared by importers (formats are loosely typed JSON). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
/** Text of a value that may be a string or structured JSON (tool arguments, outputs). */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value);
}

/** What kind of JSON value `value` is, for messages like "expected an array, found an object". */
export function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * True when `text` (typically a detection head, possibly cut mid-document) holds `"key":` as an
 * object key. The lookbehind skips escaped quotes, so a key quoted inside a JSON string value (a
 * Claude Code tool result showing a trajectory file, say) does not count as structure.
 */
export function hasJsonKey(text: string, key: string): boolean {
  return new RegExp(`(?<!\\\\)"${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\s*:`).test(text);
}

/** A parsed JSON document plus where its values start, for located issues and message sources. */
export interface LocatedJson {
  value: unknown;
  /** 1-based line of the value at `path` (or of its nearest located ancestor; 1 at worst). */
  lineOf(path: string): number;
}

/**
 * Like `readJsonDocument`, but also indexes the start line of every value down to `maxDepth` path
 * segments, so document formats can point at a record's line the way JSONL formats do.
 */
export async function readLocatedJsonDocument(source: TraceSource, issues: IssueList, maxDepth: number): Promise<LocatedJson | undefined> {
  const text = await source.text();
  if (refuseDeep(text, issues, (offset) => lineAt(text, offset))) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    reportParseError(text, error, issues);
    return undefined;
  }
  const lines = locateJsonValues(text, maxDepth);
  return { value, lineOf: (path) => lineOfPath(lines, path) };
}

/** The line of `path`, else of its closest located ancestor (`a.b[2].c` → `a.b[2]` → `a.b` → `a`). */
function lineOfPath(lines: Map<string, number>, path: string): number {
  let current = path;
  for (;;) {
    const line = lines.get(current);
    if (line !== undefined) return line;
    const parent = current.replace(/(?:\.?[^.[\]]+|\[\d+\])$/, "");
    if (parent === current) return 1;
    current = parent;
  }
}

interface JsonFrame {
  path: string;
  isArray: boolean;
  index: number;
  key: string;
  expectKey: boolean;
}

/**
 * 1-based start lines of the values of a JSON document, keyed by path in `ParseIssue.field`
 * spelling (`""` for the root, `[3].traj[5]`, `messages[2].role`), for paths of at most `maxDepth`
 * segments. One linear scan with no second parse tree; expects text `JSON.parse` already accepted
 * (on other text the lines are best-effort). Pretty-printed documents get exact lines; a
 * single-line document maps everything to 1.
 */
export function locateJsonValues(text: string, maxDepth: number): Map<string, number> {
  const lines = new Map<string, number>();
  const stack: JsonFrame[] = [];
  let line = 1;
  const startValue = (): string => {
    if (stack.length > maxDepth) return "";
    const path = childPath(stack[stack.length - 1]);
    lines.set(path, line);
    return path;
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 10) line += 1;
    if (c === 34) {
      const end = endOfJsonString(text, i);
      if (top && !top.isArray && top.expectKey) {
        top.key = decodeKey(text.slice(i, end));
        top.expectKey = false;
      } else startValue();
      i = end;
      continue;
    }
    if (c === 123 || c === 91) stack.push({ path: startValue(), isArray: c === 91, index: 0, key: "", expectKey: c === 123 });
    else if (c === 125 || c === 93) stack.pop();
    else if (c === 44 && top) {
      if (top.isArray) top.index += 1;
      else top.expectKey = true;
    } else if (!isJsonSpace(c) && c !== 58) {
      startValue();
      while (i < text.length && !isJsonDelimiter(text.charCodeAt(i))) i++;
      continue;
    }
    i++;
  }
  return lines;
}

function childPath(parent: JsonFrame | undefined): string {
  if (!parent) return "";
  if (parent.isArray) return `${parent.path}[${parent.index}]`;
  return parent.path ? `${parent.path}.${parent.key}` : parent.key;
}

function decodeKey(quoted: string): string {
  if (!quoted.includes("\\")) return quoted.slice(1, -1);
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted.slice(1, -1);
  }
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function isJsonDelimiter(c: number): boolean {
  return c === 44 || c === 125 || c === 93 || isJsonSpace(c);
}

/** A JSON record plus the line of any value inside it (by `ParseIssue.field` path). */
export interface JsonRecord extends JsonLine {
  lineOf(path: string): number;
}

/**
 * Streams the records of a source that may be one JSON document or JSON Lines (the generic
 * message formats accept both). JSONL is recognised from the head (a first line that is complete
 * JSON followed by another line opening an object or array) and streamed line by line; anything
 * else is parsed as one document, whose values down to `locateDepth` path segments are located
 * so `lineOf` points into a pretty-printed file (`[0].messages[3].content` is 4 segments). Text
 * that fails to parse as a document but still reads as JSONL is split into lines, so a JSONL file
 * whose first line is the broken one still imports its other lines.
 */
export async function* readJsonRecords(source: TraceSource, issues: IssueList, locateDepth = 4): AsyncIterable<JsonRecord> {
  if (looksLikeJsonLines(source.head)) {
    for await (const record of readJsonLines(source, issues)) yield { ...record, lineOf: () => record.line };
    return;
  }
  const text = await source.text();
  if (refuseDeep(text, issues, (offset) => lineAt(text, offset))) return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (!looksLikeBrokenJsonLines(text)) {
      issues.error(lineOfError(text, error), `invalid JSON: ${reason(error)}`, undefined, "a JSON document or one JSON value per line");
      return;
    }
    yield* splitJsonLines(text, issues);
    return;
  }
  const lines = locateJsonValues(text, locateDepth);
  yield { line: 1, value, lineOf: (path) => lineOfPath(lines, path) };
}

function* splitJsonLines(text: string, issues: IssueList): Iterable<JsonRecord> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const trimmed = (lines[i] ?? "").trim();
    if (!trimmed || refuseDeep(trimmed, issues, () => i + 1)) continue;
    try {
      yield { line: i + 1, value: JSON.parse(trimmed), lineOf: () => i + 1 };
    } catch (error) {
      issues.error(i + 1, `invalid JSON: ${reason(error)} (line starts ${excerpt(trimmed)})`, undefined, "one JSON value per line");
    }
  }
}

/** True when the head reads as JSONL: a complete first value, then another line opening one. */
export function looksLikeJsonLines(head: string): boolean {
  const lines = head
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const [first, second] = lines;
  if (!first || !second || !/^[[{]/.test(second)) return false;
  try {
    JSON.parse(first);
    return /^[[{]/.test(first);
  } catch {
    return false;
  }
}

/**
 * Whether unparseable text still reads as JSONL: at least two unindented lines open a value and
 * one of them is a complete value on its own (a cut pretty-printed document has neither).
 */
function looksLikeBrokenJsonLines(text: string): boolean {
  let opening = 0;
  let complete = false;
  for (const line of text.split("\n")) {
    if (!/^[[{]/.test(line)) continue;
    opening += 1;
    if (!complete) complete = parsesAlone(line.trim());
    if (opening >= 2 && complete) return true;
  }
  return false;
}

function parsesAlone(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a head carries the marks of one of the specific agent formats (tau-bench, mini-swe-agent,
 * SWE-agent, OpenHands, Claude Code, Codex, OTel spans, Tracefold JSONL). Those files embed
 * Chat Completions / Anthropic / Responses messages, so the generic message importers check this
 * and stay at or below 0.2 to let the specific importer win. Keys are matched unescaped, so a
 * message that merely quotes such JSON inside a string does not count.
 */
export function hasAgentFormatMarkers(name: string, head: string): boolean {
  if (/\.traj(\.json)?$/i.test(name) || /\.aider\.chat\.history\.md$/i.test(name)) return true;
  return AGENT_FORMAT_KEYS.test(head) || AGENT_FORMAT_VALUES.test(head);
}

const AGENT_FORMAT_KEYS =
  /(?<!\\)"(task_id|traj|trajectory|trajectory_format|model_stats|parentUuid|isSidechain|leafUuid|sessionId|observation|tool_call_metadata|llm_metrics|spans|resourceSpans|scopeSpans|tracefold)"\s*:/;
const AGENT_FORMAT_VALUES =
  /(?<!\\)"type"\s*:\s*"(session_meta|response_item|turn_context|event_msg|compacted|file-history-snapshot|queue-operation)"|(?<!\\)"source"\s*:\s*"(agent|environment)"/;
