/**
 * Cuts `text` to at most `maxTokens` (by the given counter), at a line boundary when possible, and
 * marks the cut. Binary search over the length keeps it to O(log n) token counts.
 */
export function capToTokens(text: string, maxTokens: number, countTokens: (t: string) => number): string {
  if (countTokens(text) <= maxTokens) return text;
  const marker = "\n[… summary cut to its token cap …]";
  const budget = Math.max(0, maxTokens - countTokens(marker));
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(text.slice(0, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const cut = text.lastIndexOf("\n", lo);
  return `${text.slice(0, cut > lo * 0.6 ? cut : lo)}${marker}`;
}
