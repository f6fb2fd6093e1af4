import { clientIdFor, type LlmClient, type LlmMessage } from "../../llm/types";
import type { Message, Part } from "../../trace/model";
import { capToTokens } from "./cap";
import type { Summarizer, SummaryRequest } from "./types";

export interface LlmSummarizerOptions {
  /** Id shown in decision logs (default `llm:<client id>`). */
  id?: string;
  temperature?: number;
  /** Each part is cut (head and tail) to this many characters in the transcript. */
  maxPartChars?: number;
  /** The transcript keeps its newest this-many characters (the summarizer shares a context window too). */
  maxTranscriptChars?: number;
}

const DEFAULTS = { temperature: 0, maxPartChars: 4_000, maxTranscriptChars: 400_000 };

/** Tracefold's own handoff-summary prompt (the harnesses' prompts are references, not copied). */
export const HANDOFF_SYSTEM_PROMPT = [
  "You write handoff summaries for an AI agent whose working context is being compacted.",
  "Another model will continue the work with only your summary and the most recent messages, so anything you leave out is gone.",
  "Write these sections, each short, as terse bullets:",
  "## Goal — what the user wants, in their terms.",
  "## Progress — what is done and verified, what is in progress.",
  "## Decisions — choices made and why; approaches already rejected.",
  "## Constraints — user preferences, rules, limits that still apply.",
  "## Next steps — the immediate next actions, in order.",
  "## Identifiers — exact file paths, commands, ids, URLs, values and error messages needed to resume, copied verbatim.",
  "Use only facts from the transcript; never invent. Do not describe the summarizing itself.",
].join("\n");

/**
 * A Summarizer backed by a language model through the LlmClient lib/ is given (the server passes
 * the configured HTTP client; tests pass a fake). The collapsed messages are rendered as a plain
 * transcript, the harness's instructions and any previous summary are added, and the answer is
 * capped to `maxTokens` with `capToTokens`, like every summary.
 */
export function createLlmSummarizer(client: LlmClient, options: LlmSummarizerOptions = {}): Summarizer {
  const settings = { ...DEFAULTS, ...options };
  return {
    id: options.id ?? `llm:${clientIdFor(client, "summarizer")}`,
    async summarize(request: SummaryRequest): Promise<string> {
      const transcript = renderTranscript(request.messages, { maxPartChars: settings.maxPartChars, maxChars: settings.maxTranscriptChars });
      const messages: LlmMessage[] = [
        { role: "system", content: `${HANDOFF_SYSTEM_PROMPT}\nStay within ${request.maxTokens} tokens.` },
        { role: "user", content: userPrompt(transcript, request) },
      ];
      const response = await client.complete({ messages, maxTokens: request.maxTokens, temperature: settings.temperature, purpose: "summarizer" });
      return capToTokens(response.text.trim(), request.maxTokens, request.countTokens);
    },
  };
}

function userPrompt(transcript: string, request: SummaryRequest): string {
  const sections = [`<transcript>\n${transcript}\n</transcript>`];
  if (request.previousSummary) {
    sections.push(
      `<previous_summary>\n${request.previousSummary}\n</previous_summary>`,
      "Carry every still-relevant point of the previous summary into the new one; where the transcript disagrees, the transcript wins.",
    );
  }
  if (request.instructions) sections.push(`Notes for this compaction: ${request.instructions}`);
  sections.push("Write the handoff summary now.");
  return sections.join("\n\n");
}

export interface TranscriptOptions {
  maxPartChars: number;
  maxChars: number;
}

/**
 * Renders messages as a labelled plain-text transcript (`[user]`, `[assistant]`, `[tool call …]`,
 * `[tool result …]`). Long parts keep their head and tail; an over-long transcript keeps its newest
 * lines and says how much was left out.
 */
export function renderTranscript(messages: readonly Message[], options: TranscriptOptions): string {
  const blocks: string[] = [];
  for (const message of messages) for (const part of message.parts) blocks.push(renderPart(message.role, part, options.maxPartChars));
  let size = 0;
  let first = blocks.length;
  while (first > 0 && size + blocks[first - 1]!.length + 1 <= options.maxChars) size += blocks[--first]!.length + 1;
  if (first === 0) return blocks.join("\n");
  const omitted = blocks.slice(0, first).reduce((sum, b) => sum + b.length + 1, 0);
  return [`[… ${first} earlier ${first === 1 ? "entry" : "entries"} (${omitted} characters) omitted …]`, ...blocks.slice(first)].join("\n");
}

function renderPart(role: Message["role"], part: Part, maxChars: number): string {
  switch (part.type) {
    case "text":
      return `[${role}]: ${clip(part.text, maxChars)}`;
    case "reasoning":
      return `[${role} reasoning]: ${clip(part.text, maxChars)}`;
    case "tool_call":
      return `[tool call ${part.name} ${part.id}]: ${clip(part.arguments, maxChars)}`;
    case "tool_result":
      return `[tool result ${part.name ?? ""} ${part.callId}${part.isError ? " (error)" : ""}]: ${clip(part.content, maxChars)}`;
    case "image":
      return `[${role}]: [image]`;
    case "other":
      return `[${role} ${part.kind}]: ${clip(part.text ?? "", maxChars)}`;
  }
}

function clip(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.6);
  const tail = maxChars - head;
  return `${text.slice(0, head)}\n[… ${text.length - maxChars} characters cut …]\n${text.slice(text.length - tail)}`;
}
