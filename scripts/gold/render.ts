import type { Sidecar, ViewMessage } from "../../lib/compaction/projection/types";
import type { Message, Part } from "../../lib/trace/model";

/**
 * Plain-text renderings of a cut for the people (or careful readers) who label the judge's gold
 * set: the real future, a view as the agent would read it, and what the view changed relative to
 * the prefix. Nothing here names the policy or shows any judge's verdict (the labels are blind).
 */
const LONG_LINES = 80;

export function renderPart(part: Part, limitLines = Infinity): string {
  switch (part.type) {
    case "text":
      return clip(part.text, limitLines);
    case "reasoning":
      return `(reasoning) ${clip(part.text, limitLines)}`;
    case "tool_call":
      return `CALL ${part.name}${part.id ? ` [${part.id}]` : ""}: ${clip(part.arguments, limitLines)}`;
    case "tool_result":
      return `RESULT${part.callId ? ` [${part.callId}]` : ""}${part.isError ? " (error)" : ""}:\n${clip(part.content, limitLines)}`;
    case "image":
      return "[image]";
    case "other":
      return `[${part.kind}] ${clip(part.text ?? "", limitLines)}`;
  }
}

function clip(text: string, limitLines: number): string {
  const lines = text.split("\n");
  if (lines.length <= limitLines) return text;
  const head = lines.slice(0, Math.ceil(limitLines * 0.75));
  const tail = lines.slice(lines.length - Math.floor(limitLines * 0.25));
  return `${head.join("\n")}\n[… ${lines.length - head.length - tail.length} lines not shown here; the full text is in the parts/ folder …]\n${tail.join("\n")}`;
}

/** The future after the cut, every message, long outputs clipped (full parts go to separate files). */
export function renderFuture(messages: readonly Message[], cut: number): string {
  const out: string[] = [];
  for (let m = cut; m < messages.length; m++) {
    const message = messages[m]!;
    out.push(`### message ${m} — ${message.role}`);
    message.parts.forEach((part, p) => out.push(`[${m}.${p}] ${renderPart(part, LONG_LINES)}`));
    out.push("");
  }
  return out.join("\n");
}

/** The whole view as the agent reads it (for searching: is this value still visible?). */
export function renderView(view: readonly ViewMessage[]): string {
  const out: string[] = [];
  view.forEach((message, i) => {
    const origin = typeof message.origin === "number" ? `prefix message ${message.origin}` : `inserted ${message.origin}`;
    out.push(`### view message ${i} (${origin}) — ${message.role}`);
    for (const part of message.parts) out.push(renderPart(part));
    out.push("");
  });
  return out.join("\n");
}

/**
 * What the view changed: every prefix part it removed or replaced (the original, clipped, and what
 * stands in its place), and every text the harness inserted (summaries, reminders).
 */
export function renderChanges(prefix: readonly Message[], view: readonly ViewMessage[]): string {
  const kept = new Map<string, ViewMessage["parts"][number]>();
  for (const message of view) for (const part of message.parts) if (part.origin) kept.set(`${part.origin.message}:${part.origin.part}`, part);
  const out: string[] = [];
  let removed = 0;
  let replaced = 0;
  prefix.forEach((message, m) => {
    message.parts.forEach((part, p) => {
      const now = kept.get(`${m}:${p}`);
      if (now && now.action === undefined) return;
      if (!now) removed++;
      else replaced++;
      out.push(`--- prefix [${m}.${p}] ${message.role} ${now ? `REPLACED (${now.action})` : "REMOVED"}`);
      out.push(indent(renderPart(part, LONG_LINES), "- "));
      if (now) out.push(indent(renderPart(now), "+ "));
      out.push("");
    });
  });
  for (const message of view) {
    if (typeof message.origin === "number") continue;
    out.push(`--- INSERTED ${message.origin} (${message.role})`);
    for (const part of message.parts) out.push(indent(renderPart(part), "+ "));
    out.push("");
  }
  for (const message of view) {
    for (const part of message.parts) {
      if (part.origin || part.type !== "text" || part.action === undefined) continue;
      if (typeof message.origin !== "number") continue;
      out.push(`--- APPENDED to prefix message ${message.origin} (${part.action})`, indent(part.text, "+ "), "");
    }
  }
  return `${removed} prefix parts removed, ${replaced} replaced.\n\n${out.join("\n")}`;
}

export function renderSidecar(sidecar: Sidecar): string {
  return sidecar.payload;
}

function indent(text: string, prefix: string): string {
  return text.split("\n").map((l) => prefix + l).join("\n");
}
