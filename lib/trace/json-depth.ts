/**
 * Refusing deeply nested JSON before it is parsed.
 *
 * `JSON.parse` itself copes with any depth, but everything after it recurses: `JSON.stringify` of
 * tool arguments, the tokenizer's canonical JSON, the studio's renderer. A 100,000-deep array in
 * an uploaded trace would surface as "Maximum call stack size exceeded" somewhere downstream.
 * Readers check the depth first and turn an excess into a located issue instead. No real trace
 * comes near the limit (tool arguments nest a handful of levels).
 */
export const MAX_JSON_DEPTH = 512;

const STRUCTURE = /["[\]{}]/g;

/**
 * Offset of the bracket that takes `text` past `limit` levels of nesting, or undefined. One linear
 * pass over the structural characters (string contents are skipped whole, escapes honoured);
 * text too short to hold `limit` brackets is not scanned at all.
 */
export function excessNestingAt(text: string, limit: number = MAX_JSON_DEPTH): number | undefined {
  if (text.length <= limit) return undefined;
  const re = new RegExp(STRUCTURE);
  let depth = 0;
  for (let match = re.exec(text); match; match = re.exec(text)) {
    const c = text.charCodeAt(match.index);
    if (c === 34) re.lastIndex = endOfJsonString(text, match.index);
    else if (c === 91 || c === 123) {
      depth += 1;
      if (depth > limit) return match.index;
    } else depth -= 1;
  }
  return undefined;
}

/** The located issue's message for an excess found at `offset`. */
export function excessNestingMessage(offset: number): string {
  return `JSON nested deeper than ${MAX_JSON_DEPTH} levels (at character ${offset + 1}); refused rather than risk a stack overflow`;
}

/** Index just past the closing quote of the string starting at `start` (text length if unclosed). */
export function endOfJsonString(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
