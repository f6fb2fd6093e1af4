import type { Sidecar } from "../../compaction/projection/types";
import type { Message } from "../../trace/model";
import { sha256Hex } from "../../util/sha256";

/**
 * Where a sidecar's payload comes from in the trace, so a stored view (a gold unit) can name its
 * sidecars without copying their bytes: the payload is rebuilt from the trace and checked against
 * the digest. The harness stores three payload shapes (lib/compaction/policies/shared/object-edits.ts,
 * fold-call-body.ts, the pre-trim spills):
 * - `part` — the text of one part (a tool result's content, a text part);
 * - `span` — messages first..last serialised as `[{ role, parts }]` (a whole-turn fold);
 * - `call` — one tool-call part serialised as `[{ role, parts: [call] }]` (a folded call body).
 */
export type SidecarSource =
  { kind: "part"; message: number; part: number } | { kind: "span"; first: number; last: number } | { kind: "call"; message: number; part: number };

export function rebuildPayload(messages: readonly Message[], source: SidecarSource): string | undefined {
  if (source.kind === "span") {
    const span = messages.slice(source.first, source.last + 1);
    return span.length === source.last - source.first + 1 ? JSON.stringify(span.map((m) => ({ role: m.role, parts: m.parts }))) : undefined;
  }
  const message = messages[source.message];
  const part = message?.parts[source.part];
  if (!part) return undefined;
  if (source.kind === "call") return part.type === "tool_call" ? JSON.stringify([{ role: message.role, parts: [part] }]) : undefined;
  if (part.type === "tool_result") return part.content;
  if (part.type === "text" || part.type === "reasoning") return part.text;
  return undefined;
}

/**
 * A source that rebuilds `sidecar` exactly, searched among the prefix `messages[0..cut)`: parts
 * and calls first, then spans starting at a user message. Undefined when none does (the caller
 * then stores the payload itself). Linear in the prefix for parts; spans are tried from each user
 * message to each later message only while their length stays within the payload's.
 */
export function findSidecarSource(messages: readonly Message[], cut: number, sidecar: Sidecar): SidecarSource | undefined {
  const matches = (source: SidecarSource) => {
    const payload = rebuildPayload(messages, source);
    return payload !== undefined && payload.length === sidecar.payload.length && sha256Hex(payload) === sidecar.sha256;
  };
  const spanLike = sidecar.payload.startsWith('[{"role"');
  for (let m = 0; m < cut; m++) {
    for (let p = 0; p < messages[m]!.parts.length; p++) {
      const source: SidecarSource = spanLike ? { kind: "call", message: m, part: p } : { kind: "part", message: m, part: p };
      if (matches(source)) return source;
    }
  }
  if (!spanLike) return undefined;
  for (let first = 0; first < cut; first++) {
    let length = 2;
    for (let last = first; last < cut && length <= sidecar.payload.length; last++) {
      length += JSON.stringify({ role: messages[last]!.role, parts: messages[last]!.parts }).length + 1;
      const source: SidecarSource = { kind: "span", first, last };
      if (length - 1 === sidecar.payload.length && matches(source)) return source;
    }
  }
  return undefined;
}
