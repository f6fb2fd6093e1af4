import { partText } from "../../tokens/message-tokens";
import type { Message, Part } from "../../trace/model";

/**
 * The text the dependency judge reads for a part. Same as `partText`, except for tool calls: JSON
 * arguments are decoded into their leaf values, one per line (a path or a quoted paragraph inside
 * `{"content": "line\n\"x\""}` must match the raw text a tool result or user message showed), and
 * the tool's name is left out (calling `send_message` again does not depend on the prefix).
 *
 * Why one function for prefix, future, view and sidecars: a value is visible only if the matcher
 * finds it in the view exactly as it found it in the prefix, so with the `none` policy every
 * dependency is visible by construction.
 */
export function readableText(part: Part): string {
  return readableSegments(part).join("\n");
}

/** The pieces of `readableText`: the argument leaves of a JSON tool call, else the one text. */
export function readableSegments(part: Part): string[] {
  if (part.type !== "tool_call") return [partText(part)];
  return decodeLeaves(part.arguments) ?? [part.arguments];
}

/** Leaf values of JSON arguments joined by newlines; undefined when the arguments are not JSON. */
export function decodeArguments(args: string): string | undefined {
  return decodeLeaves(args)?.join("\n");
}

function decodeLeaves(args: string): string[] | undefined {
  const trimmed = args.trimStart();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return undefined;
  }
  const leaves: string[] = [];
  collectLeaves(value, leaves);
  return leaves;
}

function collectLeaves(value: unknown, out: string[]): void {
  if (value === null || value === undefined) return;
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" || typeof value === "boolean") out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectLeaves(item, out);
  else if (typeof value === "object") for (const item of Object.values(value as Record<string, unknown>)) collectLeaves(item, out);
}

/** True for a harness-written compaction summary carried in the trace (not part of any future). */
export function isNativeSummary(message: Message): boolean {
  return message.meta?.compactSummary === true;
}
