import { partText } from "../../tokens/message-tokens";
import type { Part } from "../../trace/model";
import { describeCall } from "./rule-based/call-facts";
import type { PlannerInput } from "./types";

/**
 * Renders the forked prefix the planner reads, in seed 000's Listing 1 style: each user request
 * carries header metadata with its `turn_id`, each tool result is followed by its
 * `<turn id="function:<tool>:n" />` tag. Long texts are elided in the middle with their sizes, so
 * the prompt stays bounded (about `maxChars`) however long the run is; the latest visible turn is
 * marked so the planner knows what it must not touch. Linear in the prefix.
 */
export interface RenderOptions {
  /** Soft budget for the whole rendering, in characters (default 60,000). */
  maxChars?: number;
}

export function renderIndexedPrefix(input: PlannerInput, options: RenderOptions = {}): string {
  const { session, index, cut, protect } = input;
  const budget = options.maxChars ?? 60_000;
  let results = 0;
  for (let m = 0; m < cut; m++) for (const p of session.messages[m]!.parts) if (p.type === "tool_result") results++;
  const perResult = clamp(Math.floor((budget * 0.7) / Math.max(1, results)), 160, 1_600);
  const perText = clamp(Math.floor(perResult / 2), 120, 600);
  const out: string[] = [];
  let markedLatest = false;
  for (let m = 0; m < cut; m++) {
    const message = session.messages[m]!;
    const isProtected = protect.messages.has(m);
    if (isProtected && !markedLatest) {
      out.push("--- latest visible turn: protected, never target anything below this line ---");
      markedLatest = true;
    }
    const turn = index.turnOf[m];
    const request = turn ? index.byId.get(turn) : undefined;
    if (request && request.firstMessage === m) {
      const last = Math.min(request.lastMessage, cut - 1);
      const header = {
        label: "user",
        turn_id: request.id,
        tokens: index.prefixTokens[last + 1]! - index.prefixTokens[m]!,
        ...(m === protect.latestRequest ? { latest: true } : {}),
      };
      out.push(
        `[User]\nHeader metadata:\n${JSON.stringify(header, null, 2)}\n${elide(
          message.parts
            .filter((p) => p.type !== "tool_result")
            .map(partText)
            .join("\n"),
          1_500,
        )}`,
      );
    } else if (message.role === "system") out.push(`[System]\n${elide(message.parts.map(partText).join("\n"), 600)}`);
    else if (message.role === "assistant") {
      const lines = message.parts
        .filter((p) => p.type !== "reasoning")
        .map((p) => (p.type === "tool_call" ? `[Tool call: ${p.name}(${elide(oneLine(p.arguments), 200)})]` : elide(partText(p), perText)));
      if (lines.length) out.push(`[Assistant]\n${lines.join("\n")}`);
    } else {
      const texts = message.parts
        .filter((p) => p.type !== "tool_result")
        .map(partText)
        .join("\n");
      if (texts.trim()) out.push(`[${message.role === "tool" ? "Tool" : "User"}]\n${elide(texts, perText)}`);
    }
    message.parts.forEach((part, p) => {
      if (part.type === "tool_result") out.push(renderResult(input, m, p, part, perResult, isProtected));
    });
  }
  return out.join("\n\n");
}

function renderResult(input: PlannerInput, m: number, p: number, part: Extract<Part, { type: "tool_result" }>, limit: number, isProtected: boolean): string {
  const id = input.index.functionAt.get(`${m}:${p}`);
  const object = id ? input.index.byId.get(id) : undefined;
  const call = object?.call ? input.session.messages[object.call.message]?.parts[object.call.part] : undefined;
  const args = call?.type === "tool_call" ? call.arguments : "";
  const subject = describeCall(object?.tool ?? "tool", args).subject ?? "";
  const label = `${part.isError ? "Tool error" : "Tool result"}: ${object?.rawTool ?? part.name ?? "tool"}(${elide(oneLine(subject), 120)})`;
  const tag = id ? `<turn id="${id}" tokens="${object?.tokens ?? 0}"${isProtected ? ' protected="true"' : ""} />` : "";
  return `[${label}]\n${elide(part.content, limit)}\n${tag}`;
}

/** Head and tail of `text` with the elided middle's size, or the text when it fits. */
export function elide(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.6);
  const tail = Math.floor(limit * 0.3);
  const hidden = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${hidden.toLocaleString("en-US")} chars elided …]\n${text.slice(text.length - tail)}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
