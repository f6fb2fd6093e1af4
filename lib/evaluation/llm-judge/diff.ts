import type { JudgedRun, JudgeIndex } from "../judge/types";
import { partKey, type PolicyAction, type ViewPart } from "../../compaction/projection/types";
import type { Message } from "../../trace/model";
import { elideText, type Entry } from "./bound";
import { objectIdOfPart, partLine } from "./render";

/**
 * The judge-only counterfactual evidence (seed 000: "inline context_prune_diff blocks show removed
 * or folded content for impacted turns"): for every turn the policy touched, each part it removed
 * or replaced, the action responsible, whether the payload is recoverable from a sidecar, the
 * original content ("-" lines) and what the view shows instead ("+" lines).
 *
 * Computed by comparing the prefix `messages[0..cut)` with the view's part origins, so it covers
 * every policy — planner actions, heuristic drops, summaries and lineage repairs alike.
 */
export type ImpactKind = "fold" | "mask" | "prune" | "summarize" | "truncate" | "removed";

export interface ImpactedPart {
  message: number;
  part: number;
  /** Object the part belongs to: its tool result id, or the turn id for the request's own text. */
  objectId?: string;
  /** The part is the tool call of `objectId` (removed with its result). */
  isCall?: boolean;
  kind: ImpactKind;
  /** Whether the view still holds a replacement (pointer, masked text) or nothing at all. */
  replaced: boolean;
  /** The policy action this edit is attributed to, when one names the part's object or message. */
  action?: Pick<PolicyAction, "target" | "action" | "reason">;
  /** Digest of the sidecar holding the exact payload (folds). */
  sidecar?: string;
  before: string;
  after?: string;
}

export interface ImpactedTurn {
  /** `conversation:user:k`, or `preamble` for messages before the first request. */
  turnId: string;
  parts: ImpactedPart[];
}

export function impactedTurns(messages: readonly Message[], index: JudgeIndex, result: JudgedRun): ImpactedTurn[] {
  const inView = new Map<string, ViewPart>();
  for (const message of result.view) for (const part of message.parts) if (part.origin) inView.set(partKey(part.origin), part);
  const actionByTarget = new Map<string, PolicyAction>();
  for (const action of result.actions) if (!actionByTarget.has(action.target)) actionByTarget.set(action.target, action);
  const sidecarByTarget = new Map(result.sidecars.map((s) => [s.target, s.sha256]));
  const callOwner = new Map<string, string>();
  for (const object of index.objects) if (object.call) callOwner.set(partKey(object.call), object.id);
  const turns = new Map<string, ImpactedPart[]>();
  for (let m = 0; m < result.cut && m < messages.length; m++) {
    const turnId = index.turnOf[m] ?? "preamble";
    messages[m]!.parts.forEach((part, p) => {
      if (part.type === "reasoning") return;
      const key = partKey({ message: m, part: p });
      const shown = inView.get(key);
      if (shown && (shown.action === undefined || shown.action === "keep")) return;
      const ownId = objectIdOfPart(index, m, p, part);
      const objectId = ownId ?? callOwner.get(key);
      const action = [objectId, turnId, `message:${m}`].map((t) => (t ? actionByTarget.get(t) : undefined)).find(Boolean);
      const kind = (shown?.action ?? action?.action ?? "removed") as ImpactKind;
      const sidecar = (objectId && sidecarByTarget.get(objectId)) || sidecarByTarget.get(turnId);
      const list = turns.get(turnId) ?? [];
      list.push({
        message: m,
        part: p,
        ...(objectId ? { objectId } : {}),
        ...(!ownId && objectId ? { isCall: true } : {}),
        kind,
        replaced: shown !== undefined,
        ...(action ? { action: { target: action.target, action: action.action, reason: action.reason } } : {}),
        ...(sidecar ? { sidecar } : {}),
        before: `${labelOf(messages[m]!, part)}\n${partLine(part)}`,
        ...(shown ? { after: partLine(shown) } : {}),
      });
      turns.set(turnId, list);
    });
  }
  return [...turns.entries()].map(([turnId, parts]) => ({ turnId, parts }));
}

/**
 * One entry per impacted turn: `<context_prune_diff turn="…">`, an `@@` line per edited part,
 * its original content as `-` lines and its replacement as `+` lines (each side capped at
 * `partCap` characters), then the closing tag.
 */
export function pruneDiffEntries(turns: readonly ImpactedTurn[], partCap: number): { entries: Entry[]; elided: boolean } {
  let elided = false;
  const entries = turns.map((turn) => ({
    header: `<context_prune_diff turn="${turn.turnId}" edits="${turn.parts.length}">`,
    body: [
      ...turn.parts.map((part) => {
        elided ||= part.before.length > partCap || (part.after?.length ?? 0) > partCap;
        return renderPart(part, partCap);
      }),
      "</context_prune_diff>",
    ].join("\n"),
  }));
  return { entries, elided };
}

function renderPart(part: ImpactedPart, cap: number): string {
  const what = part.isCall ? `call of ${part.objectId}` : (part.objectId ?? `message ${part.message} part ${part.part}`);
  const recovery = part.sidecar
    ? `recoverable from sidecar sha256:${part.sidecar.slice(0, 12)}`
    : part.kind === "fold"
      ? "fold without a sidecar"
      : "not recoverable";
  const because = part.action ? ` · by ${part.action.action} ${part.action.target}${part.action.reason ? ` (${oneLine(part.action.reason)})` : ""}` : "";
  const lines = [`@@ ${what} · ${part.kind} · ${recovery}${because}`, prefixLines("- ", elideText(part.before, cap))];
  lines.push(part.after !== undefined ? prefixLines("+ ", elideText(part.after, cap)) : "+ (nothing: removed from the view)");
  return lines.join("\n");
}

function labelOf(message: Message, part: Message["parts"][number]): string {
  if (part.type === "tool_result") return `[Tool result: ${part.name ?? "tool"}${part.isError ? " · error" : ""}]`;
  if (part.type === "tool_call") return "[Assistant tool call]";
  return `[${message.role === "user" ? "User" : message.role === "assistant" ? "Assistant" : message.role === "system" ? "System" : "Tool"}]`;
}

function prefixLines(prefix: string, text: string): string {
  return text
    .split("\n")
    .map((line) => prefix + line)
    .join("\n");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}
