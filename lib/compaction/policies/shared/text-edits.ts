/**
 * Text transformations behind mask and truncate, shared so every policy elides the same way and
 * the markers are recognisable in the studio and by judges.
 */

/** Keeps the first `head` and last `tail` characters; the middle becomes a marker with counts. */
export function headTail(text: string, head: number, tail: number, label = "truncated"): string {
  if (text.length <= head + tail + 64) return text;
  const middle = text.slice(head, text.length - tail);
  const lines = countLines(middle);
  return `${text.slice(0, head)}\n[… ${label} ${middle.length.toLocaleString("en-US")} chars, ${lines} lines …]\n${text.slice(text.length - tail)}`;
}

/** Keeps the first `head` and last `tail` lines (mask keeps boundary hints, seed 000). */
export function headTailLines(text: string, head: number, tail: number, label = "masked"): string {
  const lines = text.split("\n");
  if (lines.length <= head + tail + 1) return text;
  const hidden = lines.length - head - tail;
  return [...lines.slice(0, head), `[… ${label} ${hidden} lines …]`, ...lines.slice(lines.length - tail)].join("\n");
}

function countLines(text: string): number {
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Seed 000 mask: structural hints survive (first/last lines, or head/tail chars for one-line blobs). */
export function maskContent(text: string, headLines = 3, tailLines = 2, maxChars = 600): string {
  const byLines = headTailLines(text, headLines, tailLines);
  if (byLines.length <= maxChars + 80) return byLines;
  return headTail(byLines, Math.floor(maxChars * 0.6), Math.floor(maxChars * 0.4), "masked");
}
