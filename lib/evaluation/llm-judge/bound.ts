/**
 * Size bounds for judge packets. A packet must fit a judge's context whatever the session length,
 * so every section is fitted to a character budget: long texts keep their head and tail with an
 * explicit elision marker, and when even that is too much, whole entries are dropped from the
 * middle (or the end) with a marker saying how many. Markers always state what was hidden, so
 * the judge can tell "elided for length" from "removed by the policy".
 */

/**
 * Head and tail of `text` within `limit` characters, the middle replaced by a sized marker.
 * Texts barely longer than a marker are returned whole (eliding them would not save anything), so
 * the result can exceed a limit smaller than the marker itself.
 */
export function elideText(text: string, limit: number): string {
  const marker = (hidden: number) => `\n[… ${hidden} chars elided …]\n`;
  if (text.length <= Math.max(limit, marker(text.length).length + 16)) return text;
  const room = Math.max(0, limit - marker(text.length).length);
  const head = Math.ceil(room * 0.65);
  const tail = room - head;
  return `${text.slice(0, head)}${marker(text.length - head - tail)}${tail > 0 ? text.slice(text.length - tail) : ""}`;
}

/** A rendered entry: a header line that is always kept whole, and a body that may be elided. */
export interface Entry {
  header: string;
  body: string;
}

export interface FitOptions {
  /** Smallest body kept before whole entries are dropped instead (default 240). */
  minBody?: number;
  /** Which entries survive when some must go: both ends (default) or the first ones. */
  keep?: "ends" | "head";
  /** Noun for the drop marker ("messages", "edits"). */
  noun?: string;
  /** Between entries (default a blank line). */
  separator?: string;
}

/**
 * Joins entries (header, newline, body; entries separated by a blank line) within `budget`
 * characters. First shrinks every over-long body to a common cap (the largest that fits, found by
 * bisection). If that cap would fall under `minBody`, keeps as many entries as fit at `minBody` —
 * one from the head for every two from the tail (`keep: "ends"`: the start and the latest context
 * both matter) or only from the head (`keep: "head"`: the immediate future matters most) — and
 * replaces the rest with one marker. The result never exceeds `budget` (for budgets of at least a
 * marker's length).
 */
export function fitEntries(entries: readonly Entry[], budget: number, options: FitOptions = {}): { text: string; elided: boolean } {
  if (entries.length === 0) return { text: "", elided: false };
  const sep = options.separator ?? "\n\n";
  const full = render(entries, Infinity, sep);
  if (full.length <= budget) return { text: full, elided: false };
  const minBody = options.minBody ?? 240;
  const cap = largestCap(entries, budget, sep);
  if (cap >= minBody) return { text: render(entries, cap, sep), elided: true };
  const chosen = chooseEntries(entries, budget, minBody, options.keep ?? "ends", options.noun ?? "entries", sep);
  const chosenCap = largestCap(chosen, budget, sep);
  const text = chosenCap >= 0 ? render(chosen, chosenCap, sep) : elideText(render(chosen, 0, sep), budget);
  return { text: text.length <= budget ? text : text.slice(0, Math.max(0, budget)), elided: true };
}

function chooseEntries(entries: readonly Entry[], budget: number, minBody: number, keep: "ends" | "head", noun: string, sep: string): Entry[] {
  const cost = (e: Entry) => e.header.length + 1 + Math.min(e.body.length, minBody) + sep.length;
  let used = 64; // the drop marker
  const head: Entry[] = [];
  const tail: Entry[] = [];
  let i = 0;
  let j = entries.length - 1;
  while (i <= j) {
    const fromHead = keep === "head" || head.length * 2 <= tail.length;
    const entry = entries[fromHead ? i : j]!;
    if (used + cost(entry) > budget) break;
    used += cost(entry);
    if (fromHead) head.push(entries[i++]!);
    else tail.unshift(entries[j--]!);
  }
  const dropped = entries.length - head.length - tail.length;
  return [...head, { header: `[… ${dropped} ${noun} elided for length …]`, body: "" }, ...tail];
}

function render(entries: readonly Entry[], cap: number, sep: string): string {
  return entries.map((e) => (e.body ? `${e.header}\n${elideText(e.body, cap)}` : e.header)).join(sep);
}

/** The largest body cap whose rendering fits the budget (−1 when not even the smallest does). */
function largestCap(entries: readonly Entry[], budget: number, sep: string): number {
  if (render(entries, 0, sep).length > budget) return -1;
  let lo = 0;
  let hi = Math.max(0, ...entries.map((e) => e.body.length));
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(entries, mid, sep).length <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
