import type { PlannerInput } from "../types";

/**
 * Exact evidence (seed 000, Table 5 "Exact evidence loss" and "Verbatim-source loss"): a tool
 * result whose lines a later step copied verbatim — an edit's old text, a value pasted into a
 * command, a quoted error — is source-backed evidence the agent works from. The newest result
 * holding a copied line gets the credit, so an older duplicate stays collectable. Linear in the
 * prefix text.
 */
const MIN_LINE = 32;
const MAX_LINE = 400;

export function findQuotedObjects(input: PlannerInput): Set<string> {
  const { session, index, cut } = input;
  const holder = new Map<string, string>();
  const quoted = new Set<string>();
  for (let m = 0; m < cut; m++) {
    const message = session.messages[m]!;
    message.parts.forEach((part, p) => {
      if (part.type === "tool_result") {
        const id = index.functionAt.get(`${m}:${p}`);
        if (id) for (const line of significantLines(part.content)) holder.set(line, id);
      } else if (part.type === "tool_call" || (message.role === "user" && part.type === "text")) {
        const text = part.type === "tool_call" ? argumentText(part.arguments) : part.text;
        for (const line of significantLines(text)) {
          const id = holder.get(line);
          if (id) quoted.add(id);
        }
      }
    });
  }
  return quoted;
}

/** Trimmed lines long enough to be specific, without `cat -n` / Read line-number gutters. */
function significantLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/^\s*\d+(?:→|\t)/, "").trim();
    if (line.length >= MIN_LINE && line.length <= MAX_LINE) out.push(line);
  }
  return out;
}

/** The string values of JSON arguments (where edit bodies live), or the raw text. */
function argumentText(args: string): string {
  if (!args.trimStart().startsWith("{")) return args;
  try {
    const value: unknown = JSON.parse(args);
    if (!value || typeof value !== "object") return args;
    return Object.values(value as Record<string, unknown>)
      .filter((v): v is string => typeof v === "string")
      .join("\n");
  } catch {
    return args;
  }
}
