import { endOfJsonString } from "./json-depth";

/**
 * Does a JSON text that failed to parse simply end early? A download cut short or a file copied
 * while it was written leaves a document whose brackets never close or whose last string never
 * ends; the engine then reports whatever it tripped on last ("Bad control character in string
 * literal … position 13194"), which tells a user nothing. One linear pass over the structural
 * characters (strings skipped whole, escapes honoured) says whether the text stops inside an
 * unclosed string or with brackets still open.
 */
export interface Truncation {
  /** Brackets still open at the end of the text. */
  open: number;
  /** The text ends inside a string. */
  inString: boolean;
}

export function truncationOf(text: string): Truncation | undefined {
  const re = /["[\]{}]/g;
  let depth = 0;
  for (let match = re.exec(text); match; match = re.exec(text)) {
    const c = text.charCodeAt(match.index);
    if (c === 34) {
      const end = endOfJsonString(text, match.index);
      if (end >= text.length && !closesAt(text, match.index)) return { open: depth, inString: true };
      re.lastIndex = end;
    } else if (c === 91 || c === 123) depth += 1;
    else if (depth === 0) return undefined;
    else depth -= 1;
  }
  return depth > 0 ? { open: depth, inString: false } : undefined;
}

/** The user's message for a document that ends early, naming its last line. */
export function truncationMessage(truncation: Truncation, lastLine: number): string {
  const where = truncation.inString ? "inside a string" : `with ${truncation.open} ${truncation.open === 1 ? "bracket" : "brackets"} still open`;
  return `the file ends early: the JSON stops at its last line (${lastLine}) ${where} — it looks cut off (an interrupted download or copy); upload the complete file`;
}

/** True when the string opened at `start` is closed by the text's very last character. */
function closesAt(text: string, start: number): boolean {
  if (text.length - 1 <= start || text.charCodeAt(text.length - 1) !== 34) return false;
  let backslashes = 0;
  while (text.charCodeAt(text.length - 2 - backslashes) === 92) backslashes++;
  return backslashes % 2 === 0;
}

/** 1-based number of the last line that holds something (a final newline opens no line). */
export function lastLineOf(text: string): number {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1]!)) end--;
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
