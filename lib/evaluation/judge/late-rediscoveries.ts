import type { FutureText } from "./future";
import { lowerBound } from "./span-windows";
import type { DependencyKind } from "./types";
import { ValueForms } from "./value-forms";

/**
 * First re-discoveries (`firstRediscovery` of dependencies.ts) of the values a commit finds that
 * the session index could not list in advance: long shared spans and constraint sentences, which
 * depend on the commit's prefix. The re-discovery rule only asks whether the value showed before
 * its first use, so a commit scans the re-discovery texts from its cut to the last such use when
 * that costs at most `budget` characters (about what the commit's prefix costs anyway). Past it,
 * the values are scanned once to the session's end and their showings kept, so a value the head
 * carries from commit to commit (a user's constraint used far later) is scanned once, not once per
 * commit. Answers are exact either way; only the cost differs.
 */
export class LateRediscoveries {
  private readonly known = new Map<string, { from: number; whole: number[]; lines: number[][] }>();
  private readonly charsBefore: Float64Array;

  constructor(
    private readonly texts: readonly FutureText[],
    /** Per message m: the first text at or after m. */
    private readonly textFrom: Int32Array,
  ) {
    this.charsBefore = new Float64Array(texts.length + 1);
    texts.forEach((t, i) => (this.charsBefore[i + 1] = this.charsBefore[i]! + t.text.length));
  }

  /** Per value, the message of its first re-discovery at or after `at` — exact when ≤ its `until`, else any value > `until`. */
  firstAtOrAfter(at: number, values: readonly { value: string; kind: DependencyKind; until: number }[], budget: number): number[] {
    const keyOf = (v: { value: string; kind: DependencyKind }) => `${v.kind}\u0000${v.value}`;
    const missing = values.filter((v) => !((this.known.get(keyOf(v))?.from ?? Infinity) <= at));
    if (missing.length > 0) {
      const until = Math.max(...missing.map((v) => v.until));
      const start = this.textFrom[at]!;
      const end = this.textFrom[Math.min(until + 1, this.textFrom.length - 1)]!;
      if (this.charsBefore[end]! - this.charsBefore[start]! > budget) {
        const found = this.showings(missing, start, this.texts.length);
        missing.forEach((v, i) => this.known.set(keyOf(v), { from: at, ...found[i]! }));
      } else {
        const found = this.showings(missing, start, end);
        const first = new Map(missing.map((v, i) => [keyOf(v), earliest(found[i]!, at)]));
        return values.map((v) => first.get(keyOf(v)) ?? earliest(this.known.get(keyOf(v))!, at));
      }
    }
    return values.map((v) => earliest(this.known.get(keyOf(v))!, at));
  }

  /** Messages of texts [from, to) showing each value whole (word-bounded), and each of its line forms. */
  private showings(values: readonly { value: string; kind: DependencyKind }[], from: number, to: number): { whole: number[]; lines: number[][] }[] {
    const forms = new ValueForms(
      values.map((v) => v.value),
      values.map((v) => v.kind),
    );
    const out = values.map((_, i) => ({ whole: [] as number[], lines: Array.from({ length: forms.lineCounts[i]! }, () => [] as number[]) }));
    const push = (list: number[], message: number) => list[list.length - 1] !== message && list.push(message);
    for (let t = from; t < to; t++) {
      const { ref, text } = this.texts[t]!;
      forms.scan(
        text,
        false,
        (i) => push(out[i]!.whole, ref.message),
        (i, line) => push(out[i]!.lines[line]!, ref.message),
      );
    }
    return out;
  }
}

/** The first message at or after `at` where the value showed whole, or where its last line form had shown (Infinity: never). */
function earliest(found: { whole: number[]; lines: number[][] }, at: number): number {
  const firstOf = (list: number[]) => {
    const i = lowerBound(list, 0, list.length, at);
    return i < list.length ? list[i]! : Infinity;
  };
  const whole = firstOf(found.whole);
  if (found.lines.length === 0) return whole;
  return Math.min(whole, Math.max(...found.lines.map(firstOf)));
}
