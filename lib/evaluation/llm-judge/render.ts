import { isUserRequest } from "../judge/requests";
import type { JudgeIndex } from "../judge/types";
import type { ViewMessage, ViewPart } from "../../compaction/projection/types";
import { partText } from "../../tokens/message-tokens";
import type { Message, Part } from "../../trace/model";
import type { Entry } from "./bound";

/**
 * Renders messages into packet entries. The retained prefix is rendered from the projected view —
 * exactly what the agent would read — with the object id of each user request and tool result in
 * its header (`[User · conversation:user:2]`, `[Tool result: Read · function:read:3 · fold
 * pointer]`), so the judge can name the object it blames. Reasoning parts are left out (providers
 * redact or summarise them; they are not evidence the agent can quote).
 */
const ACTION_LABEL: Record<string, string> = {
  fold: "fold pointer",
  mask: "masked",
  prune: "pruned",
  summarize: "summary",
  truncate: "truncated",
};

/** One entry per message, except tool results: each is its own entry (its own object). */
export function viewEntries(view: readonly ViewMessage[]): Entry[] {
  const entries: Entry[] = [];
  for (const message of view) {
    const others = message.parts.filter((p) => p.type !== "tool_result" && p.type !== "reasoning");
    if (others.length > 0) {
      const objectId = others.find((p) => p.objectId)?.objectId;
      const actions = [...new Set(others.map((p) => p.action).filter((a): a is NonNullable<ViewPart["action"]> => a !== undefined && a !== "keep"))];
      const label =
        message.origin === "summary" ? "Summary inserted by the policy" : message.origin === "reminder" ? "Harness reminder" : roleLabel(message.role);
      entries.push({
        header: `[${[label, objectId, ...actions.map((a) => ACTION_LABEL[a] ?? a)].filter(Boolean).join(" · ")}]`,
        body: others.map(partLine).join("\n"),
      });
    }
    for (const part of message.parts) {
      if (part.type !== "tool_result") continue;
      const tags = [
        part.objectId,
        part.isError ? "error" : undefined,
        part.action && part.action !== "keep" ? (ACTION_LABEL[part.action] ?? part.action) : undefined,
      ].filter(Boolean);
      entries.push({ header: `[Tool result: ${part.name ?? "tool"}${tags.length ? ` · ${tags.join(" · ")}` : ""}]`, body: part.content });
    }
  }
  return entries;
}

/**
 * The real future after the cut: messages [cut, end), where `end` is the start of the
 * (`requests` + 1)-th user request after the cut (default: the continuation of the current turn
 * plus the next two requests) unless given. Harness-written compaction summaries recorded in the
 * trace (`meta.compactSummary`) are not part of the future and are skipped.
 */
export function futureEnd(messages: readonly Message[], cut: number, requests = 2): number {
  let seen = 0;
  for (let m = cut; m < messages.length; m++) {
    const message = messages[m]!;
    if (isUserRequest(message) && message.meta?.meta !== true && message.meta?.compactSummary !== true) {
      seen++;
      if (seen > requests) return m;
    }
  }
  return messages.length;
}

export function futureEntries(messages: readonly Message[], cut: number, end: number): Entry[] {
  const entries: Entry[] = [];
  for (let m = cut; m < end; m++) {
    const message = messages[m]!;
    if (message.meta?.compactSummary === true) continue;
    const others = message.parts.filter((p) => p.type !== "tool_result" && p.type !== "reasoning");
    if (others.length > 0) entries.push({ header: `[${roleLabel(message.role)} · message ${m}]`, body: others.map(partLine).join("\n") });
    for (const part of message.parts) {
      if (part.type === "tool_result")
        entries.push({ header: `[Tool result: ${part.name ?? "tool"}${part.isError ? " · error" : ""} · message ${m}]`, body: part.content });
    }
  }
  return entries;
}

/** How a non-result part reads in a packet: tool calls as `→ name(arguments)`. */
export function partLine(part: Part): string {
  if (part.type === "tool_call") return `→ ${part.name}(${part.arguments})`;
  return partText(part);
}

function roleLabel(role: Message["role"]): string {
  return role === "user" ? "User" : role === "assistant" ? "Assistant" : role === "system" ? "System" : "Tool";
}

/** Object ids of a turn's request text or a tool result, for headers; undefined for other parts. */
export function objectIdOfPart(index: JudgeIndex, m: number, p: number, part: Part): string | undefined {
  if (part.type === "tool_result") return index.functionAt.get(`${m}:${p}`);
  const turn = index.turnOf[m];
  return turn && index.byId.get(turn)?.firstMessage === m ? turn : undefined;
}
