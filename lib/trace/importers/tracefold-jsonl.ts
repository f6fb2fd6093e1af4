import { expectedOf as expectedOfIssue } from "../zod-issues";
import { z } from "zod";
import { IssueList, type Importer } from "../importer";
import { isRecord, readJsonLines } from "../json-lines";
import { FORMAT_IDS, type ParseResult, type Session } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";

/**
 * Tracefold's own interchange format (docs/tracefold-jsonl.md), for anyone converting traces from
 * a source Tracefold has no importer for. It mirrors lib/trace/model.ts one line per record:
 * a `session` line (carrying `"tracefold": "1"`), then that session's `message` and `compaction`
 * lines in conversation order. A compaction sits before the next message of its session. Several
 * sessions may share a file, and their lines may interleave (`session` names the owner; it
 * defaults to the last session declared).
 *
 * Every line is validated with zod; each zod issue becomes a located issue (line, field path,
 * expected), and the line is skipped while the rest of the file imports. Objects are strict, so a
 * misspelt field is reported rather than silently dropped. Message indexes, source locations,
 * orphan flags and result names are derived on import, never read.
 */
export const tracefoldJsonlImporter: Importer = {
  format: "tracefold_jsonl",
  label: "Tracefold JSONL",
  detect(name, head) {
    const first = head.split("\n").find((l) => l.trim()) ?? "";
    if (/"tracefold"\s*:\s*"\d+"/.test(first) && /"type"\s*:\s*"session"/.test(first)) return 0.99;
    if (/\.tracefold\.jsonl$/i.test(name)) return 0.9;
    return /"tracefold"\s*:\s*"\d+"/.test(head) ? 0.6 : 0;
  },
  parse: parseTracefoldJsonl,
};

/** Version written by the exporter and accepted by the importer. */
export const TRACEFOLD_JSONL_VERSION = "1";

const count = z.number().int().nonnegative();
const UsageSchema = z
  .strictObject({
    inputTokens: count.optional(),
    outputTokens: count.optional(),
    cachedInputTokens: count.optional(),
    cacheWriteTokens: count.optional(),
  })
  .meta({ id: "Usage", description: "Provider-reported token usage" });
const MetaSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .meta({ id: "Meta", description: "Format-specific flags worth keeping" });
const timestamp = z.string().min(1).describe("ISO-8601 timestamp (a local time without zone is kept as given)");

const PartSchema = z
  .discriminatedUnion("type", [
    z.strictObject({ type: z.literal("text"), text: z.string() }),
    z.strictObject({ type: z.literal("reasoning"), text: z.string() }),
    z.strictObject({ type: z.literal("tool_call"), id: z.string().min(1), name: z.string().min(1), arguments: z.string() }),
    z.strictObject({
      type: z.literal("tool_result"),
      callId: z.string().min(1),
      name: z.string().optional(),
      content: z.string(),
      isError: z.boolean().optional(),
    }),
    z.strictObject({ type: z.literal("image"), mediaType: z.string().optional(), bytes: count.optional() }),
    z.strictObject({ type: z.literal("other"), kind: z.string().min(1), text: z.string().optional() }),
  ])
  .meta({ id: "Part", description: "One part of a message (lib/trace/model.ts Part)" });

const SessionLineSchema = z.strictObject({
  tracefold: z.literal(TRACEFOLD_JSONL_VERSION),
  type: z.literal("session"),
  id: z.string().min(1),
  title: z.string().optional(),
  sourceFormat: z.enum(FORMAT_IDS).optional().describe("Format the session was originally imported from"),
  models: z.array(z.string()).optional().describe("Models, most frequent first; derived from the messages when absent"),
  startedAt: timestamp.optional(),
  usage: UsageSchema.optional(),
  parentId: z.string().optional(),
  meta: MetaSchema.optional(),
});

const MessageLineSchema = z.strictObject({
  type: z.literal("message"),
  session: z.string().min(1).optional().describe("Owning session id; defaults to the last session line"),
  role: z.enum(["system", "user", "assistant", "tool"]),
  parts: z.array(PartSchema),
  timestamp: timestamp.optional(),
  model: z.string().optional(),
  usage: UsageSchema.optional(),
  meta: MetaSchema.optional(),
});

const CompactionLineSchema = z.strictObject({
  type: z.literal("compaction"),
  session: z.string().min(1).optional(),
  kind: z.enum(["claude_code_compact_boundary", "codex_compacted", "other"]),
  trigger: z.string().optional(),
  preTokens: count.optional(),
  summary: z.string().optional(),
  timestamp: timestamp.optional(),
});

/** One line of a Tracefold JSONL file. docs/tracefold-jsonl.schema.json is generated from it. */
export const TracefoldLineSchema = z
  .discriminatedUnion("type", [SessionLineSchema, MessageLineSchema, CompactionLineSchema])
  .meta({ title: "Tracefold JSONL line", description: "One line of a Tracefold JSONL trace (docs/tracefold-jsonl.md)." });
export type TracefoldLine = z.infer<typeof TracefoldLineSchema>;
export type TracefoldSessionLine = z.infer<typeof SessionLineSchema>;
export type TracefoldMessageLine = z.infer<typeof MessageLineSchema>;
export type TracefoldCompactionLine = z.infer<typeof CompactionLineSchema>;

/** The JSON Schema (draft 2020-12) of one line, as checked into docs/tracefold-jsonl.schema.json. */
export function tracefoldLineJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(TracefoldLineSchema, { target: "draft-2020-12" }) as Record<string, unknown>;
}

interface OpenSession {
  builder: SessionBuilder;
  line: TracefoldSessionLine;
}

async function parseTracefoldJsonl(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const sessions = new Map<string, OpenSession>();
  let current: OpenSession | undefined;
  for await (const { line, value } of readJsonLines(source, issues)) {
    const parsed = TracefoldLineSchema.safeParse(value);
    if (!parsed.success) {
      reportZodIssues(parsed.error.issues, value, line, issues);
      continue;
    }
    const record = parsed.data;
    if (record.type === "session") {
      if (sessions.has(record.id)) {
        issues.error(line, `session id "${record.id}" is declared twice; line skipped`, "id", "a session id unique within the file");
        continue;
      }
      current = { builder: new SessionBuilder(record.id, "tracefold_jsonl"), line: record };
      sessions.set(record.id, current);
      continue;
    }
    const owner = record.session === undefined ? current : sessions.get(record.session);
    if (!owner) {
      const problem = record.session === undefined ? "no session line before this line" : `unknown session "${record.session}"`;
      issues.error(line, `${problem}; line skipped`, "session", "the id of an earlier session line");
      continue;
    }
    addRecord(owner.builder, record, { file: source.name, line });
  }
  if (!sessions.size && !issues.errorCount)
    issues.error(1, "no session line found", undefined, `{"tracefold":"${TRACEFOLD_JSONL_VERSION}","type":"session","id":…}`);
  return { format: "tracefold_jsonl", sessions: [...sessions.values()].map(buildSession), issues: issues.items };
}

function addRecord(builder: SessionBuilder, record: TracefoldMessageLine | TracefoldCompactionLine, source: { file: string; line: number }): void {
  if (record.type === "message") {
    const { type: _type, session: _session, ...message } = record;
    builder.add({ ...message, source });
    return;
  }
  const { type: _type, session: _session, ...compaction } = record;
  builder.addCompaction({ ...compaction, source });
}

function buildSession({ builder, line }: OpenSession): Session {
  const { tracefold: _version, type: _type, id: _id, sourceFormat, models, ...rest } = line;
  const meta = sourceFormat ? { ...rest.meta, sourceFormat } : rest.meta;
  const session = builder.build({ ...rest, ...(meta ? { meta } : {}) });
  return models ? { ...session, models } : session;
}

/**
 * zod issues → located issues: the dotted field path, zod's reason, and what was expected there
 * (the allowed values or type). An unknown line `type` gets one clear issue instead of a union dump.
 */
function reportZodIssues(zodIssues: z.core.$ZodIssue[], value: unknown, line: number, issues: IssueList): void {
  if (!isRecord(value)) {
    issues.error(line, "line is not a JSON object", undefined, '{"type": "session" | "message" | "compaction", …}');
    return;
  }
  for (const issue of zodIssues) {
    const keys = issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of keys) issues.error(line, issue.message, formatPath(path) || undefined, expectedOf(issue));
  }
}

/** The shared wording (zod-issues.ts), plus the two cases only this strict format meets. */
function expectedOf(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === "invalid_union")
    return "options" in issue && Array.isArray(issue.options) ? issue.options.map((v) => JSON.stringify(v)).join(" | ") : undefined;
  if (issue.code === "unrecognized_keys") return "only the fields documented in docs/tracefold-jsonl.md";
  return expectedOfIssue(issue);
}

/** `["parts", 2, "callId"]` → `parts[2].callId`. */
function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "");
}
