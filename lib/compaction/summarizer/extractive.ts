import { extractAnchors } from "../context/anchors";
import { normaliseToolCall } from "../context/tool-names";
import type { Message } from "../../trace/model";
import { capToTokens } from "./cap";
import type { Summarizer, SummaryRequest } from "./types";

const MAX_REQUESTS = 12;
const MAX_ANCHORS = 24;
const LINE_CHARS = 220;

/**
 * The embedded summarizer: deterministic and extractive, no model needed. It keeps what a handoff
 * summary is for (the user's requests, what was done, where things are, the latest state) using
 * only text that exists in the collapsed messages, so it never invents facts. Exact values beyond
 * its anchor list are deliberately lost: that is what summaries do, and what evaluation measures.
 */
export const extractiveSummarizer: Summarizer = {
  id: "extractive",
  summarize(request: SummaryRequest): string {
    const lines = [`[Summary of ${request.messages.length} earlier messages — extractive]`];
    if (request.previousSummary) lines.push("Earlier summary:", oneLine(request.previousSummary, 600));
    const requests = userRequests(request.messages);
    if (requests.length > 0) {
      lines.push("User requests:");
      const shown = requests.length > MAX_REQUESTS ? [requests[0]!, ...requests.slice(-(MAX_REQUESTS - 1))] : requests;
      for (const r of shown) lines.push(`- ${r}`);
    }
    const tools = toolCounts(request.messages);
    if (tools) lines.push(`Tools used: ${tools}`);
    const anchors = recentAnchors(request.messages);
    if (anchors.length > 0) lines.push(`Referenced: ${anchors.join(", ")}`);
    const last = lastAssistantText(request.messages);
    if (last) lines.push(`Latest assistant note: ${oneLine(last, 600)}`);
    return capToTokens(lines.join("\n"), request.maxTokens, request.countTokens);
  },
};

function oneLine(text: string, max = LINE_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function userRequests(messages: Message[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role !== "user") continue;
    const text = m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(" ");
    if (text.trim()) out.push(oneLine(text));
  }
  return out;
}

function toolCounts(messages: Message[]): string {
  const counts = new Map<string, number>();
  for (const m of messages)
    for (const p of m.parts)
      if (p.type === "tool_call") {
        const name = normaliseToolCall(p.name, p.arguments);
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([n, c]) => `${n} ×${c}`)
    .join(", ");
}

/** Anchors from the newest messages first: the latest locations are the likeliest to matter. */
function recentAnchors(messages: Message[]): string[] {
  const seen = new Set<string>();
  for (let i = messages.length - 1; i >= 0 && seen.size < MAX_ANCHORS; i--) {
    for (const p of messages[i]!.parts) {
      const text = p.type === "tool_call" ? p.arguments : p.type === "text" ? p.text : "";
      for (const a of extractAnchors(text, 8)) {
        if (a.kind !== "number" && seen.size < MAX_ANCHORS) seen.add(a.value);
      }
    }
  }
  return [...seen];
}

function lastAssistantText(messages: Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    const text = m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(" ");
    if (text.trim()) return text;
  }
  return undefined;
}
