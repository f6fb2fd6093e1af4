import { z } from "zod";
import { IssueList, type Importer } from "../importer";
import { hasJsonKey, isRecord, jsonKind, looksLikeJsonLines, readJsonLines, readLocatedJsonDocument, str } from "../json-lines";
import type { ParseResult, Session } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { reportZodIssues } from "../zod-issues";
import { GeminiRecordSchema, addGeminiRecord, typedText, type GeminiRecord } from "./gemini-cli-records";

/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project hash>/chats/`), both containers:
 * - JSONL (current CLIs, `session-<time>-<id>.jsonl`): a metadata line `{sessionId, projectHash,
 *   startTime, lastUpdated, kind}`, then message records, `{$set: {…}}` metadata patches and
 *   `{$rewindTo: id}` rewinds. A record whose `id` was seen before replaces it in place (the CLI
 *   rewrites a model turn once its tool calls finish); a rewind drops that message and every later
 *   one. This is how the CLI itself loads the file, so the import is the conversation it resumes;
 * - one JSON object (older CLIs, `session-*.json`): the same metadata with `messages[]`.
 * Records map to messages as gemini-cli-records.ts says. One file is one session, its id the
 * recording's `sessionId`.
 *
 * `logs.json` in the same directory is recognised and refused: it holds only the user's prompts
 * (`[{sessionId, messageId, type: "user", message, timestamp}]`), no model turn or tool call, so
 * there is no agent context to import; the chat recording of the same `sessionId` has them all.
 */
export const geminiCliChatImporter: Importer = {
  format: "gemini_cli_chat",
  label: "Gemini CLI chat recording",
  detect: detectGeminiCliChat,
  parse: parseGeminiCliChat,
};

const MetadataSchema = z.looseObject({
  sessionId: z.string().min(1),
  projectHash: z.string().nullish(),
  startTime: z.string().nullish(),
  summary: z.string().nullish(),
  kind: z.string().nullish(),
});
type Metadata = Partial<z.infer<typeof MetadataSchema>>;
const SHAPE = "{sessionId, projectHash, startTime, messages[]} or its JSONL form";

function detectGeminiCliChat(name: string, head: string): number {
  const first =
    head
      .split("\n")
      .find((l) => l.trim())
      ?.trim() ?? "";
  const header = tryParse(first);
  if (isRecord(header) && typeof header.sessionId === "string" && typeof header.projectHash === "string") return 0.95;
  const gemini = /(?<!\\)"type"\s*:\s*"gemini"/.test(head);
  if (/^\uFEFF?\s*\{/.test(head) && hasJsonKey(head, "sessionId") && hasJsonKey(head, "projectHash")) return gemini || hasJsonKey(head, "messages") ? 0.9 : 0.6;
  if (looksLikePromptLog(head)) return /(^|[\\/])logs\.json$/i.test(name) ? 0.85 : 0.6;
  return 0;
}

/** `logs.json`: an array of `{sessionId, messageId, type, message, timestamp}` prompt entries. */
function looksLikePromptLog(head: string): boolean {
  return /^\uFEFF?\s*\[\s*\{/.test(head) && hasJsonKey(head, "sessionId") && /(?<!\\)"messageId"\s*:\s*\d/.test(head) && /(?<!\\)"message"\s*:\s*"/.test(head);
}

async function parseGeminiCliChat(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const recording = looksLikeJsonLines(source.head) ? await readJsonlRecording(source, issues) : await readJsonRecording(source, issues);
  const sessions = recording ? buildSession(recording, source.name, issues) : [];
  return { format: "gemini_cli_chat", sessions, issues: issues.items };
}

interface Recording {
  metadata: Metadata;
  /** Message records in conversation order, each with the line its kept version came from. */
  records: { record: GeminiRecord; line: number }[];
}

async function readJsonlRecording(source: TraceSource, issues: IssueList): Promise<Recording> {
  let metadata: Metadata = {};
  const records = new Map<string, { record: GeminiRecord; line: number }>();
  for await (const { line, value } of readJsonLines(source, issues)) {
    if (!isRecord(value)) {
      issues.error(line, `line is ${jsonKind(value)}, not an object`, undefined, "a message record, {$set}, {$rewindTo} or the metadata line");
    } else if (typeof value.$rewindTo === "string") {
      rewind(records, value.$rewindTo);
    } else if (isRecord(value.$set)) {
      metadata = { ...metadata, ...pickMetadata(value.$set) };
    } else if (typeof value.id === "string") {
      const parsed = GeminiRecordSchema.safeParse(value);
      if (parsed.success) records.set(parsed.data.id, { record: parsed.data, line });
      else reportZodIssues(issues, parsed.error, { field: "", lineOf: () => line }, "message record skipped");
    } else if (typeof value.sessionId === "string") {
      metadata = { ...metadata, ...pickMetadata(value) };
    } else {
      issues.error(
        line,
        "unrecognised record: neither a message (string id), a $set, a $rewindTo nor the metadata line",
        undefined,
        "a Gemini CLI chat record",
      );
    }
  }
  return { metadata, records: [...records.values()] };
}

/** As the CLI does: drop the message `id` and everything after it (everything, if `id` is unknown). */
function rewind(records: Map<string, unknown>, id: string): void {
  let found = false;
  for (const key of [...records.keys()]) {
    if (key === id) found = true;
    if (found) records.delete(key);
  }
  if (!found) records.clear();
}

async function readJsonRecording(source: TraceSource, issues: IssueList): Promise<Recording | undefined> {
  const doc = await readLocatedJsonDocument(source, issues, 2);
  if (!doc) return undefined;
  if (Array.isArray(doc.value) && looksLikePromptLog(source.head)) {
    const id = doc.value.map((entry) => (isRecord(entry) ? str(entry.sessionId) : undefined)).find(Boolean);
    const message = `a Gemini CLI logs.json holds only the user's prompts (no model turns, no tool calls), so it is not imported; import the chat recording of the same session instead${id ? ` (sessionId ${id})` : ""}`;
    issues.error(1, message, undefined, "~/.gemini/tmp/<project hash>/chats/session-*.json or .jsonl");
    return undefined;
  }
  if (!isRecord(doc.value) || typeof doc.value.sessionId !== "string") {
    issues.error(
      1,
      `expected a Gemini CLI chat recording, found ${jsonKind(doc.value)}${isRecord(doc.value) ? " without a sessionId" : ""}`,
      "sessionId",
      SHAPE,
    );
    return undefined;
  }
  const messages = doc.value.messages;
  if (!Array.isArray(messages)) {
    issues.error(doc.lineOf("messages"), `messages is ${jsonKind(messages)}, not an array`, "messages", "an array of message records");
    return undefined;
  }
  const records: Recording["records"] = [];
  messages.forEach((raw, i) => {
    const parsed = GeminiRecordSchema.safeParse(raw);
    if (parsed.success) records.push({ record: parsed.data, line: doc.lineOf(`messages[${i}]`) });
    else reportZodIssues(issues, parsed.error, { field: `messages[${i}]`, lineOf: doc.lineOf }, "message record skipped");
  });
  return { metadata: pickMetadata(doc.value), records };
}

function pickMetadata(value: Record<string, unknown>): Metadata {
  const parsed = MetadataSchema.partial().safeParse(value);
  if (!parsed.success) return {};
  return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => typeof v === "string")) as Metadata;
}

function buildSession({ metadata, records }: Recording, file: string, issues: IssueList): Session[] {
  const builder = new SessionBuilder(metadata.sessionId ?? stem(file), "gemini_cli_chat");
  const unknown = new Set<string>();
  for (const { record, line } of records) {
    if (addGeminiRecord(builder, record, { file, line }) || unknown.has(record.type)) continue;
    unknown.add(record.type);
    issues.warn(line, `unknown message type ${JSON.stringify(record.type)} skipped (later ones silently)`, "type");
  }
  if (builder.messageCount === 0) {
    issues.warn(1, "no user or model messages: the recording holds no conversation");
    return [];
  }
  const firstUser = records.find((r) => r.record.type === "user");
  const typed = firstUser ? typedText(firstUser.record).split("\n")[0] : undefined;
  const title = metadata.summary ?? (typed ? (typed.length > 80 ? `${typed.slice(0, 79)}…` : typed) : undefined);
  const meta = Object.fromEntries(
    [
      ["projectHash", metadata.projectHash],
      ["kind", metadata.kind],
    ].filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  return [
    builder.build({
      ...(title ? { title } : {}),
      ...(metadata.startTime ? { startedAt: metadata.startTime } : {}),
      ...(Object.keys(meta).length ? { meta } : {}),
    }),
  ];
}

function stem(file: string): string {
  return (file.replace(/\\/g, "/").split("/").pop() ?? file).replace(/\.jsonl?$/i, "") || "session";
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
