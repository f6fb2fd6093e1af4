import { z } from "zod";
import { IssueList, type Importer } from "../importer";
import { hasJsonKey, isRecord, jsonKind, readLocatedJsonDocument } from "../json-lines";
import type { ParseResult, Part } from "../model";
import { SessionBuilder } from "../session-builder";
import type { TraceSource } from "../source";
import { reportZodIssues } from "../zod-issues";
import { GeminiPartSchema, contentPart, responseContent, type GeminiPart } from "./gemini-parts";

/**
 * A raw Gemini API conversation history: the `Content[]` array Gemini CLI sends as `contents` (and
 * writes for `/chat save` checkpoints and history exports), `[{role: "user" | "model", parts[]}]`.
 * It has no timestamps, usage or model names, so a session holds only the conversation.
 *
 * A `model` content is one assistant message (thought parts as reasoning, text, `functionCall`s as
 * tool calls); a `user` content is a user message, or a tool message when it carries
 * `functionResponse` parts (Gemini returns tool output as a user turn). Calls and responses link by
 * `id`; histories from before the API had ids link a response to the oldest unanswered call of the
 * same name. `thoughtSignature` is opaque and dropped. A wrapper `{contents: [...]}` (a request
 * body) or `{history: [...]}` is accepted too. One file is one session named by the file.
 */
export const geminiApiContentsImporter: Importer = {
  format: "gemini_api_contents",
  label: "Gemini API contents (history)",
  detect: detectGeminiContents,
  parse: parseGeminiContents,
};

const ContentSchema = z.looseObject({ role: z.enum(["user", "model", "function"]), parts: z.array(GeminiPartSchema) });
const SHAPE = '[{role: "user" | "model", parts: [...]}, …]';

/** A list of `{role, parts}` whose parts use Gemini's field names. */
function detectGeminiContents(_name: string, head: string): number {
  const opens = /^\uFEFF?\s*\[\s*\{/.test(head) || /^\uFEFF?\s*\{\s*"(contents|history)"\s*:\s*\[/.test(head);
  if (!opens || !hasJsonKey(head, "parts") || !hasJsonKey(head, "role")) return 0;
  let score = 0.5;
  if (/(?<!\\)"role"\s*:\s*"model"/.test(head)) score += 0.25;
  if (hasJsonKey(head, "functionCall") || hasJsonKey(head, "functionResponse") || hasJsonKey(head, "thoughtSignature")) score += 0.15;
  return score;
}

async function parseGeminiContents(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  const doc = await readLocatedJsonDocument(source, issues, 3);
  if (!doc) return { format: "gemini_api_contents", sessions: [], issues: issues.items };
  const key = isRecord(doc.value) ? (Array.isArray(doc.value.contents) ? "contents" : Array.isArray(doc.value.history) ? "history" : undefined) : undefined;
  const contents = key && isRecord(doc.value) ? doc.value[key] : doc.value;
  if (!Array.isArray(contents)) {
    issues.error(1, `expected a Gemini Content[] array, found ${jsonKind(doc.value)}`, undefined, SHAPE);
    return { format: "gemini_api_contents", sessions: [], issues: issues.items };
  }
  const builder = new SessionBuilder(stem(source.name), "gemini_api_contents");
  const linker = new CallLinker(builder);
  contents.forEach((raw, i) => {
    const field = key ? `${key}[${i}]` : `[${i}]`;
    const parsed = ContentSchema.safeParse(raw);
    if (!parsed.success) {
      reportZodIssues(issues, parsed.error, { field, lineOf: doc.lineOf }, "content skipped");
      return;
    }
    const { role, parts } = parsed.data;
    const mapped = role === "model" ? modelParts(parts, linker) : userParts(parts, linker);
    const hasResults = mapped.some((p) => p.type === "tool_result");
    builder.add({
      role: role === "model" ? "assistant" : hasResults || role === "function" ? "tool" : "user",
      parts: mapped,
      source: { file: source.name, line: doc.lineOf(field) },
    });
  });
  if (builder.messageCount === 0) issues.warn(1, "no contents: the history is empty");
  return { format: "gemini_api_contents", sessions: builder.messageCount ? [builder.build()] : [], issues: issues.items };
}

function modelParts(parts: GeminiPart[], linker: CallLinker): Part[] {
  return parts.flatMap((part): Part[] => {
    const call = part.functionCall;
    if (call) return [{ type: "tool_call", id: linker.call(call.name, call.id ?? undefined), name: call.name, arguments: JSON.stringify(call.args ?? {}) }];
    const mapped = contentPart(part);
    return mapped ? [mapped] : [];
  });
}

function userParts(parts: GeminiPart[], linker: CallLinker): Part[] {
  return parts.flatMap((part): Part[] => {
    const response = part.functionResponse;
    if (response) {
      const name = response.name ?? undefined;
      const { content, isError } = responseContent([part]);
      return [
        { type: "tool_result", callId: linker.response(name, response.id ?? undefined), ...(name ? { name } : {}), content, ...(isError ? { isError } : {}) },
      ];
    }
    const mapped = contentPart(part);
    return mapped ? [mapped] : [];
  });
}

/** Call ids: the API's own when present, else synthetic ones paired with responses by name, in order. */
class CallLinker {
  private readonly pending = new Map<string, string[]>();
  constructor(private readonly builder: SessionBuilder) {}

  call(name: string, id: string | undefined): string {
    if (id) return id;
    const synthetic = this.builder.nextSyntheticCallId();
    this.pending.set(name, [...(this.pending.get(name) ?? []), synthetic]);
    return synthetic;
  }

  response(name: string | undefined, id: string | undefined): string {
    if (id) return id;
    const queue = name ? this.pending.get(name) : undefined;
    return queue?.shift() ?? this.builder.nextSyntheticCallId();
  }
}

function stem(file: string): string {
  return (file.replace(/\\/g, "/").split("/").pop() ?? file).replace(/\.json$/i, "") || "history";
}
