import { isRecord, str } from "../json-lines";

/** Record kinds Claude Code writes; detection and the importer's unknown-type warning use the same list. */
export const RECORD_TYPES = new Set(["user", "assistant", "system", "progress", "file-history-snapshot", "queue-operation", "summary"]);

/**
 * High confidence when the head's complete lines are JSON objects and at least one has a Claude
 * Code shape. A first line longer than the head (a huge pasted prompt) leaves no complete line;
 * then the visible prefix is sniffed for the same keys, with a lower score.
 */
export function detectClaudeCode(_name: string, head: string): number {
  const lines = headLines(head);
  if (lines.complete.length === 0) return sniffPrefix(lines.cut ?? "") ? 0.7 : 0;
  let claudeLike = 0;
  let foreign = 0;
  for (const text of lines.complete.slice(0, 100)) {
    const value = tryParse(text);
    if (!isRecord(value)) foreign += 1;
    else if (hasClaudeShape(value)) claudeLike += 1;
  }
  if (claudeLike === 0) return 0;
  return foreign === 0 ? 0.95 : 0.5;
}

function hasClaudeShape(record: Record<string, unknown>): boolean {
  const type = str(record.type);
  if ("parentUuid" in record && typeof record.sessionId === "string") return true;
  if (type === "summary" && typeof record.leafUuid === "string") return true;
  if (type === "file-history-snapshot" && isRecord(record.snapshot)) return true;
  return typeof record.sessionId === "string" && type !== undefined && RECORD_TYPES.has(type);
}

function sniffPrefix(prefix: string): boolean {
  return /^\s*\{/.test(prefix) && /"sessionId"\s*:\s*"/.test(prefix) && /"parentUuid"\s*:|"type"\s*:\s*"(user|assistant|system|progress)"/.test(prefix);
}

/** Non-blank lines of the head; a last line that does not parse is treated as cut by the limit. */
function headLines(head: string): { complete: string[]; cut?: string } {
  const lines = head
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines[lines.length - 1];
  if (last !== undefined && tryParse(last) === undefined) return { complete: lines.slice(0, -1), cut: last };
  return { complete: lines };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
