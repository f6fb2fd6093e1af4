import type { ContextIndex } from "@/lib/compaction/context/objects";
import { partBody as textOf } from "@/lib/trace/part-body";
import { countViewMessage } from "@/lib/compaction/projection/materialize";
import type { Sidecar, ViewMessage, ViewPart } from "@/lib/compaction/projection/types";
import type { Tokenizer } from "@/lib/tokens/tokenizer";
import type { ProjectedMessage, ProjectedPart } from "./compaction-api";

/** Characters of an unchanged part sent with a run; the full text is the original part, fetched on demand. */
export const UNCHANGED_PREVIEW_CHARS = 2_400;
/** Changed parts (pointers, masks, truncations, summaries) are short; this only bounds pathological ones. */
export const CHANGED_MAX_CHARS = 200_000;

/**
 * The projected view as the studio renders it: every part as text with its action, object id and
 * the sidecars it points to. Unchanged parts are cut to a preview — they are byte-identical to the
 * original, which the studio already fetches by window — so a run over a long prefix stays small.
 */
export function projectView(view: ViewMessage[], sidecars: Sidecar[], index: ContextIndex, tokenizer: Tokenizer): ProjectedMessage[] {
  const digests = sidecars.map((s) => ({ sha256: s.sha256, target: s.target }));
  return view.map((message) => ({
    role: message.role,
    origin: message.origin,
    tokens: isUntouched(message, index) ? index.messageTokens[message.origin as number]! : countViewMessage(message, tokenizer),
    parts: message.parts.map((part) => projectPart(part, digests)),
  }));
}

function isUntouched(message: ViewMessage, index: ContextIndex): boolean {
  return typeof message.origin === "number" && index.messageTokens[message.origin] !== undefined && message.parts.every((p) => p.origin && !p.action);
}

function projectPart(part: ViewPart, digests: { sha256: string; target: string }[]): ProjectedPart {
  const full = textOf(part);
  const cap = part.action ? CHANGED_MAX_CHARS : UNCHANGED_PREVIEW_CHARS;
  const text = full.length > cap ? full.slice(0, cap) : full;
  const linked = part.action && part.action !== "keep" ? linkedSidecars(full, part.objectId, digests) : [];
  return {
    type: part.type,
    ...(part.origin ? { origin: part.origin } : {}),
    ...(part.action ? { action: part.action } : {}),
    ...(part.objectId ? { objectId: part.objectId } : {}),
    ...(!part.origin && part.type === "text" && part.action === "fold" ? { reminder: true } : {}),
    ...(part.type === "tool_call" ? { name: part.name, callId: part.id } : {}),
    ...(part.type === "tool_result" ? { callId: part.callId, ...(part.name ? { name: part.name } : {}), ...(part.isError ? { isError: true } : {}) } : {}),
    ...(part.type === "other" ? { otherKind: part.kind } : {}),
    text,
    truncated: text.length < full.length,
    length: full.length,
    lines: countLines(full),
    ...(linked.length > 0 ? { sidecars: linked } : {}),
  };
}

/**
 * Sidecars a changed part refers to: any digest (full, or the 12-hex prefix pointers and reminders
 * print) found in its text; failing that, a sidecar whose target is the part's own object.
 */
function linkedSidecars(text: string, objectId: string | undefined, digests: { sha256: string; target: string }[]): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/[0-9a-f]{12,64}/g)) {
    for (const d of digests) if (d.sha256.startsWith(match[0])) found.add(d.sha256);
  }
  if (found.size === 0 && objectId) for (const d of digests) if (d.target === objectId) found.add(d.sha256);
  return [...found];
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}
