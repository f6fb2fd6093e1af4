import type { Anchor } from "../../../context/anchors";
import { isUserRequest } from "../../../context/objects";
import type { Message } from "../../../../trace/model";
import type { PolicyContext } from "../../types";

/**
 * Stage 4 — working-memory anchor (seed 002 §2.3.4): after every tool call GA attaches to the next
 * user message an anchor with (i) the 20 most recent one-line turn summaries, each ~100 chars,
 * (ii) the current turn number and (iii) a `key_info` block the agent maintains. Once stage 3 has
 * evicted history it is the only long-term memory left.
 *
 * Replayed deterministically, without the agent: a turn's line is its first line of assistant text
 * (or its tool calls) and `[USER]` lines quote requests; the turn number counts the prefix's
 * assistant messages; `key_info` lists the anchors (urls, paths, ids) of the newest objects.
 */
export interface AnchorOptions {
  /** Seed 002: 20 most recent lines (GA HEAD later moved to 30, notes §7). */
  lines: number;
  /** Seed 002: each line compressed to roughly one hundred characters. */
  lineChars: number;
}

/** How many key_info entries the replay keeps, and how many newest objects it reads them from. */
export const KEY_INFO_ANCHORS = 12;
export const KEY_INFO_OBJECTS = 10;

export function buildAnchor(ctx: PolicyContext, options: AnchorOptions): string {
  const lines: string[] = [];
  let turns = 0;
  for (let m = ctx.cut - 1; m >= 0; m--) {
    const message = ctx.session.messages[m]!;
    if (message.role === "assistant") turns++;
    if (lines.length >= options.lines) continue;
    const line = turnLine(message, options.lineChars);
    if (line) lines.push(line);
  }
  lines.reverse();
  const keyInfo = keyInfoAnchors(ctx).map((a) => `- ${a.kind}: ${a.value}`);
  return [
    "[working memory — GenericAgent stage 4 anchor, replayed]",
    "<history>",
    ...lines,
    "</history>",
    `Current turn: ${turns}`,
    "<key_info>",
    ...(keyInfo.length > 0 ? keyInfo : ["(none)"]),
    "</key_info>",
  ].join("\n");
}

/** One line for a request or an assistant turn; undefined for anything else. */
export function turnLine(message: Message, maxChars: number): string | undefined {
  if (message.role === "user" && isUserRequest(message)) {
    const text = message.parts.find((p) => p.type === "text");
    return text && text.type === "text" ? clip(`[USER] ${oneLine(text.text, maxChars)}`, maxChars) : undefined;
  }
  if (message.role !== "assistant") return undefined;
  for (const part of message.parts) if (part.type === "text" && part.text.trim()) return clip(`[Agent] ${oneLine(part.text, maxChars)}`, maxChars);
  const calls = message.parts.flatMap((p) => (p.type === "tool_call" ? [`${p.name} ${oneLine(p.arguments, maxChars)}`] : []));
  return calls.length > 0 ? clip(`[Agent] ${calls.join("; ")}`, maxChars) : undefined;
}

/** Anchors of the newest objects of the prefix, newest first, de-duplicated (numbers left out). */
function keyInfoAnchors(ctx: PolicyContext): Anchor[] {
  const seen = new Set<string>();
  const out: Anchor[] = [];
  let read = 0;
  for (let i = ctx.index.objects.length - 1; i >= 0 && read < KEY_INFO_OBJECTS && out.length < KEY_INFO_ANCHORS; i--) {
    const object = ctx.index.objects[i]!;
    if (object.firstMessage >= ctx.cut) continue;
    read++;
    for (const anchor of object.anchors) {
      if (anchor.kind === "number" || seen.has(anchor.value) || out.length >= KEY_INFO_ANCHORS) continue;
      seen.add(anchor.value);
      out.push(anchor);
    }
  }
  return out;
}

/** Whitespace collapsed; only the first few hundred characters are read (the line is clipped anyway). */
function oneLine(text: string, maxChars: number): string {
  return text
    .slice(0, 4 * maxChars)
    .replace(/\s+/g, " ")
    .trim();
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}
