import type { Part, Role } from "../../../../trace/model";
import type { PolicyContext } from "../../types";

/**
 * GenericAgent's history in its own unit (seed 002 §2.3.4, eq. 1): `C_H = Σ len(m)` where len is
 * the character length of the JSON-serialised message, and `B = α · W` with α ≈ 3 chars/token.
 * GA keeps the system prompt outside its trimmed history, so system messages are neither counted
 * nor edited. Each entry holds the message's current parts (after truncation and compression) and
 * its current size; a message is re-serialised only when one of its parts changes, so the whole
 * decision stays linear in the prefix.
 */

/** Rules, in the order the stages apply; a later stage supersedes an earlier one on the same part. */
export const GA_RULES = ["stage1-truncate", "stage2-compress", "stage3-compress-strict"] as const;
export type GaRule = (typeof GA_RULES)[number];

export interface GaEntry {
  /** Index of the message in the session. */
  message: number;
  role: Role;
  parts: Part[];
  /** The rule that last changed each part; undefined while the part is as recorded. */
  rules: (GaRule | undefined)[];
  chars: number;
  isProtected: boolean;
  evicted: boolean;
}

export interface GaHistory {
  entries: GaEntry[];
  /** C_H over entries not evicted. */
  chars: number;
}

/** len(m) of seed 002 eq. 1, over Tracefold's canonical message shape. */
export function messageChars(role: Role, parts: readonly Part[]): number {
  return JSON.stringify({ role, content: parts }).length;
}

export function buildHistory(ctx: PolicyContext): GaHistory {
  const entries: GaEntry[] = [];
  let chars = 0;
  for (let m = 0; m < ctx.cut; m++) {
    const message = ctx.session.messages[m]!;
    if (message.role === "system") continue;
    const size = messageChars(message.role, message.parts);
    chars += size;
    entries.push({
      message: m,
      role: message.role,
      parts: [...message.parts],
      rules: message.parts.map(() => undefined),
      chars: size,
      isProtected: ctx.protect.messages.has(m),
      evicted: false,
    });
  }
  return { entries, chars };
}

/**
 * Rewrites an entry's parts with `transform` (undefined = unchanged), recording `rule` on each
 * changed part and keeping C_H current. Protected and evicted entries are never rewritten.
 * Returns how many parts changed.
 */
export function rewriteEntry(history: GaHistory, entry: GaEntry, rule: GaRule, transform: (part: Part, index: number) => Part | undefined): number {
  if (entry.isProtected || entry.evicted) return 0;
  let changed = 0;
  entry.parts.forEach((part, p) => {
    const next = transform(part, p);
    if (!next || partBody(next) === partBody(part)) return;
    entry.parts[p] = next;
    entry.rules[p] = rule;
    changed++;
  });
  if (changed > 0) {
    const size = messageChars(entry.role, entry.parts);
    history.chars += size - entry.chars;
    entry.chars = size;
  }
  return changed;
}

export function evictEntry(history: GaHistory, entry: GaEntry): void {
  if (entry.evicted || entry.isProtected) return;
  entry.evicted = true;
  history.chars -= entry.chars;
}

/** The text a stage edits in a part: result content, call arguments, or the text itself. */
export function partBody(part: Part): string {
  switch (part.type) {
    case "tool_result":
      return part.content;
    case "tool_call":
      return part.arguments;
    case "text":
    case "reasoning":
      return part.text;
    case "other":
      return part.text ?? "";
    case "image":
      return "";
  }
}

/** The same part with its body replaced (identity fields — ids, names — kept). */
export function withBody(part: Part, body: string): Part {
  switch (part.type) {
    case "tool_result":
      return { ...part, content: body };
    case "tool_call":
      return { ...part, arguments: body };
    case "text":
    case "reasoning":
      return { ...part, text: body };
    default:
      return part;
  }
}
