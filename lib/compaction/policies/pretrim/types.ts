import type { ContextIndex } from "../../context/objects";
import type { Sidecar } from "../../projection/types";
import type { Tokenizer } from "../../../tokens/tokenizer";
import type { Message, Part } from "../../../trace/model";
import { sha256Hex, utf8Bytes } from "../../../util/sha256";

/**
 * Seed 001's pre-trim: token reduction applied to the *input of the summarization call*, so the
 * summarizer does not overflow. It is distinct from a strategy's preservation rule (which messages
 * survive as-is). Every move is a pure function over these items and reports one log line.
 *
 * Items carry their token counts (taken from the context index, updated only for the parts a move
 * rewrites), so a pipeline of moves is linear in the prefix and never re-tokenises it.
 */
export interface TrimItem {
  message: Message;
  /** Index of the original message in the session. */
  origin: number;
  /** Tokens of the message as it now stands. */
  tokens: number;
  /** Tool-result parts by part index: their object id and current tokens. */
  results: ReadonlyMap<number, ResultInfo>;
}

export interface ResultInfo {
  id: string;
  tokens: number;
}

/** A tool result a move rewrote, located in the original session (policies may apply it to the view). */
export interface TrimEdit {
  message: number;
  part: number;
  target: string;
  text: string;
  tokensBefore: number;
  tokensAfter: number;
  rule: string;
}

export interface PretrimResult {
  items: TrimItem[];
  edits: TrimEdit[];
  /** Originals a move spilled out of the input (seed 001: "the original spilled to a temp file"). */
  sidecars: Sidecar[];
  log: string[];
}

/** One composable move: items in, items out. */
export type PretrimStep = (items: TrimItem[], tokenizer: Tokenizer) => PretrimResult;

/** Builds summarizer-input items for original messages, with token counts from the index. */
export function trimItemsFrom(messages: Message[], origins: Iterable<number>, index: ContextIndex): TrimItem[] {
  const items: TrimItem[] = [];
  for (const origin of origins) {
    const message = messages[origin]!;
    const results = new Map<number, ResultInfo>();
    message.parts.forEach((part, p) => {
      if (part.type !== "tool_result") return;
      const id = index.functionAt.get(`${origin}:${p}`) ?? `message:${origin}:${p}`;
      results.set(p, { id, tokens: index.byId.get(id)?.tokens ?? 0 });
    });
    items.push({ message, origin, tokens: index.messageTokens[origin]!, results });
  }
  return items;
}

/** Total tokens of the items. */
export function itemTokens(items: readonly TrimItem[]): number {
  let total = 0;
  for (const item of items) total += item.tokens;
  return total;
}

/** True for items an agent produced (assistant text, tool calls, tool outputs): seed 001's "agent-generated item". */
export function isAgentItem(item: TrimItem): boolean {
  const { role, parts } = item.message;
  if (role === "assistant" || role === "tool") return true;
  return role === "user" && parts.length > 0 && parts.every((p) => p.type === "tool_result");
}

/**
 * Returns a copy of `item` whose part `part` reads `text` (tool result content, or the text of a
 * text/reasoning part), plus the edit record. Only the changed text is tokenised; a tool result's
 * old count comes from the index.
 */
export function rewritePart(item: TrimItem, part: number, text: string, tokenizer: Tokenizer, rule: string): { item: TrimItem; edit: TrimEdit } {
  const original = item.message.parts[part]!;
  const info = item.results.get(part);
  const tokensBefore = info ? info.tokens : tokenizer.count(partContent(original));
  const tokensAfter = tokenizer.count(text);
  const replaced: Part =
    original.type === "tool_result"
      ? { ...original, content: text }
      : original.type === "text" || original.type === "reasoning"
        ? { ...original, text }
        : { type: "text", text };
  const parts = item.message.parts.map((p, i) => (i === part ? replaced : p));
  let results = item.results;
  if (info) {
    const next = new Map(item.results);
    next.set(part, { id: info.id, tokens: tokensAfter });
    results = next;
  }
  return {
    item: { ...item, message: { ...item.message, parts }, tokens: item.tokens - tokensBefore + tokensAfter, results },
    edit: { message: item.origin, part, target: info?.id ?? `message:${item.origin}`, text, tokensBefore, tokensAfter, rule },
  };
}

/** The text a part holds for trimming purposes (tool result content, text, reasoning). */
export function partContent(part: Part): string {
  if (part.type === "tool_result") return part.content;
  if (part.type === "text" || part.type === "reasoning") return part.text;
  return "";
}

/** The content-addressed sidecar holding a spilled original. */
export function spill(target: string, payload: string): Sidecar {
  return { target, sha256: sha256Hex(payload), bytes: utf8Bytes(payload).length, payload };
}

/**
 * Runs moves in order; later moves see earlier moves' output. Edits to the same part keep the
 * latest text and the first `tokensBefore`, so the record reads original → final.
 */
export function runPretrim(items: TrimItem[], steps: readonly PretrimStep[], tokenizer: Tokenizer): PretrimResult {
  let current = items;
  const edits = new Map<string, TrimEdit>();
  const sidecars: PretrimResult["sidecars"] = [];
  const log: string[] = [];
  for (const step of steps) {
    const out = step(current, tokenizer);
    current = out.items;
    for (const edit of out.edits) {
      const key = `${edit.message}:${edit.part}`;
      const earlier = edits.get(key);
      edits.set(key, earlier ? { ...edit, tokensBefore: earlier.tokensBefore } : edit);
    }
    sidecars.push(...out.sidecars);
    log.push(...out.log);
  }
  return { items: current, edits: [...edits.values()], sidecars, log };
}

/**
 * A step that hands the summarizer items a move already trimmed over a wider history (Gemini's
 * budget walk and OpenCode's prune run over the whole session, not just the collapsed part).
 */
export function replayTrimmed(result: PretrimResult, label: string): PretrimStep {
  const byOrigin = new Map(result.items.map((i) => [i.origin, i]));
  return (items) => ({ items: items.map((i) => byOrigin.get(i.origin) ?? i), edits: [], sidecars: [], log: [`summarizer input: ${label}`] });
}
