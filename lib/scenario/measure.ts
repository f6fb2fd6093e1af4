import { partBody } from "../trace/part-body";
import type { Part, Session } from "../trace/model";

/**
 * Size accounting shared by the generator (to reach `targetTokens`) and its tests (to check it).
 *
 * Why characters / 4 and not a tokenizer: generation must stay linear and fast at tens of MB, and
 * the target is approximate by contract. Real token counts belong to lib/tokens.
 */

/** Characters a part contributes to the context: its text, call name + arguments, or result. */
export function partChars(part: Part): number {
  switch (part.type) {
    case "text":
    case "reasoning":
      return part.text.length;
    case "tool_call":
      return part.name.length + part.arguments.length;
    case "tool_result":
      return part.content.length;
    case "other":
      return part.text?.length ?? 0;
    case "image":
      return 0;
  }
}

/** The text of a part that an anchor can occur in (empty for images). */
export const partText: (part: Part) => string = partBody;

/** Total characters of all parts of all messages. */
export function sessionChars(session: Session): number {
  let total = 0;
  for (const message of session.messages) for (const part of message.parts) total += partChars(part);
  return total;
}

/** Approximate tokens, rounded up: the unit of `targetTokens` and of generated usage. */
export function charsToTokens(chars: number): number {
  return Math.ceil(chars / 4);
}
