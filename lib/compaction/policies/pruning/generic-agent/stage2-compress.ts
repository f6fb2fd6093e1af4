import type { Part } from "../../../../trace/model";
import { partBody, rewriteEntry, withBody, type GaEntry, type GaHistory, type GaRule } from "./history";

/**
 * Stage 2 — tag-level compression (seed 002 §2.3.4; GA `compress_history_tags`, notes §7). On every
 * message but the newest `keepRecent`:
 * - placeholder replacement: repeated working-memory blocks (`<history>`, `<key_info>`,
 *   `<earlier_context>`) become `<tag>[...]</tag>` — only the newest snapshot is needed;
 * - windowed truncation: reasoning and tool content (`<thinking>`, `<think>`, `<tool_use>`,
 *   `<tool_result>` tag bodies, reasoning parts, tool results, tool-call input values) longer than
 *   the ~800-char window keeps its first and last 400 characters.
 * The pass is idempotent: a windowed text windows to itself.
 */
export const STAGE2_WINDOW_CHARS = 800;
/** GA's marker between the kept head and tail (notes §7). */
export const STAGE2_MARKER = "\n...[Truncated]...\n";

const WORKING_MEMORY_TAGS = /<(history|key_info|earlier_context)>[\s\S]*?<\/\1>/g;
const WINDOWED_TAGS = /<(thinking|think|tool_use|tool_result)>([\s\S]*?)<\/\1>/g;

/** First and last half-window characters of a text longer than the window. */
export function windowText(text: string, window = STAGE2_WINDOW_CHARS): string {
  if (text.length <= window) return text;
  const half = Math.floor(window / 2);
  return `${text.slice(0, half)}${STAGE2_MARKER}${text.slice(text.length - half)}`;
}

/** Placeholder replacement and tag windowing inside free text. */
export function compressTags(text: string): string {
  if (!text.includes("<")) return text;
  return text
    .replace(WORKING_MEMORY_TAGS, (_, tag: string) => `<${tag}>[...]</${tag}>`)
    .replace(WINDOWED_TAGS, (_, tag: string, body: string) => `<${tag}>${windowText(body)}</${tag}>`);
}

/** Tool-call inputs: each long string value of a JSON object is windowed; other inputs as a whole. */
export function windowArguments(args: string): string {
  if (args.length <= STAGE2_WINDOW_CHARS) return args;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return windowText(args);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return windowText(args);
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === "string" && value.length > STAGE2_WINDOW_CHARS) {
      out[key] = windowText(value);
      changed = true;
    } else out[key] = value;
  }
  return changed ? JSON.stringify(out) : args;
}

/** The stage 2 form of a part, or undefined when it does not change. */
export function compressPart(part: Part): Part | undefined {
  const body = partBody(part);
  let next: string;
  switch (part.type) {
    case "reasoning":
    case "tool_result":
      next = windowText(body);
      break;
    case "tool_call":
      next = windowArguments(body);
      break;
    case "text":
      next = compressTags(body);
      break;
    default:
      return undefined;
  }
  return next === body ? undefined : withBody(part, next);
}

/** Compresses entries[0..end) (those not protected); returns how many parts changed. */
export function compressEntries(history: GaHistory, end: number, rule: GaRule): number {
  let changed = 0;
  for (let i = 0; i < end; i++) changed += rewriteEntry(history, history.entries[i]!, rule, (part) => compressPart(part));
  return changed;
}

/**
 * Where GA's most recent regular pass stopped. GA counts model calls and runs the pass on every
 * `interval`-th one, over the history it is about to send, sparing the newest `keepRecent`
 * messages; compression edits the history in place, so every earlier pass covered a subset. With
 * `n` assistant messages in the prefix the next call is n + 1; the last pass ran at call
 * j = ⌊(n+1)/interval⌋·interval, whose history ended just before the j-th assistant message.
 * Returns the number of leading entries that pass compressed.
 */
export function lastPassEnd(entries: readonly Pick<GaEntry, "role">[], interval: number, keepRecent: number): { end: number; call: number } {
  let assistants = 0;
  for (const e of entries) if (e.role === "assistant") assistants++;
  const call = Math.floor((assistants + 1) / interval) * interval;
  if (call < 1) return { end: 0, call: 0 };
  let boundary = entries.length;
  if (call <= assistants) {
    let seen = 0;
    for (let i = 0; i < entries.length; i++) {
      if (entries[i]!.role === "assistant" && ++seen === call) {
        boundary = i;
        break;
      }
    }
  }
  return { end: Math.max(0, boundary - keepRecent), call };
}
