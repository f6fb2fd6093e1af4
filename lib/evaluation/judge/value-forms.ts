import { AhoCorasick } from "./aho-corasick";
import { isStandalone, isWordBounded } from "./candidates";
import type { DependencyKind } from "./types";

/**
 * The forms in which a needed value can show in a text, so that "is it visible?" and "did the
 * future get it again?" do not hinge on how a tool formats its output:
 * - the value itself (standing alone, `isStandalone`);
 * - a URL without its scheme (`localhost:3001/api` for `http://localhost:3001/api`): the locator is
 *   the same;
 * - a multi-line verbatim span as its lines: a file read prints each line after a line number
 *   (`   245→        if pos == 'left':`), a diff after `+`/`-`, so the span never occurs whole in
 *   the output, yet every line of it does. The span shows when each of its substantive lines (at
 *   least 6 letters or digits once trimmed; `end`, `}` say nothing) shows — and it has at least two.
 * Linear: one automaton over every form of every value, one pass per text.
 */
export interface FormMatch {
  /** Values found in a whole form. */
  whole: Set<number>;
  /** For each value with line forms, which of its lines were found. */
  lines: Map<number, Set<number>>;
}

interface Form {
  value: number;
  /** -1 for a whole form, else the line's position in the value's line list. */
  line: number;
}

const MIN_LINE_ALNUM = 6;

export class ValueForms {
  private readonly automaton: AhoCorasick;
  /** The forms of each distinct pattern (a line of one value may be the whole of another). */
  private readonly forms: Form[][] = [];
  /** Number of line forms per value (0: the value has no line form). */
  readonly lineCounts: number[];

  constructor(
    private readonly values: readonly string[],
    private readonly kinds: readonly DependencyKind[],
  ) {
    const patterns: string[] = [];
    const byPattern = new Map<string, number>();
    const add = (pattern: string, form: Form) => {
      let at = byPattern.get(pattern);
      if (at === undefined) {
        byPattern.set(pattern, (at = patterns.length));
        patterns.push(pattern);
        this.forms.push([]);
      }
      this.forms[at]!.push(form);
    };
    this.lineCounts = values.map(() => 0);
    values.forEach((value, i) => {
      add(value, { value: i, line: -1 });
      if (kinds[i] === "url") {
        const bare = value.replace(/^https?:\/\//, "");
        if (bare !== value && bare.length >= 6) add(bare, { value: i, line: -1 });
      }
      if (kinds[i] === "verbatim" && value.includes("\n")) {
        const lines = substantiveLines(value);
        if (lines.length >= 2) {
          this.lineCounts[i] = lines.length;
          lines.forEach((line, l) => add(line, { value: i, line: l }));
        }
      }
    });
    this.automaton = new AhoCorasick(patterns);
  }

  /**
   * Scans one text; `onWhole(value)` for a whole form standing alone (`strict`: `isStandalone`,
   * else word-bounded), `onLine(value, line)` for a line form.
   */
  scan(text: string, strict: boolean, onWhole: (value: number) => void, onLine: (value: number, line: number) => void): void {
    this.automaton.scan(text, (pattern, start) => {
      const end = start + this.automaton.patterns[pattern]!.length;
      for (const form of this.forms[pattern]!) {
        if (form.line >= 0) onLine(form.value, form.line);
        else if (strict ? isStandalone(text, start, end, this.kinds[form.value]!) : isWordBounded(text, start, end)) onWhole(form.value);
      }
    });
  }

  /** Values shown in any of `texts` (in a whole form, or every line of a line form across them). */
  findIn(texts: Iterable<string>, into = new Set<number>()): Set<number> {
    const lines = new Map<number, Set<number>>();
    for (const text of texts) {
      this.scan(
        text,
        true,
        (value) => into.add(value),
        (value, line) => {
          if (into.has(value)) return;
          const seen = lines.get(value) ?? new Set<number>();
          seen.add(line);
          lines.set(value, seen);
          if (seen.size === this.lineCounts[value]) into.add(value);
        },
      );
    }
    return into;
  }

  get size(): number {
    return this.values.length;
  }
}

/** Trimmed lines of a span with at least `MIN_LINE_ALNUM` letters or digits. */
export function substantiveLines(value: string): string[] {
  return value
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => (l.match(/[A-Za-z0-9]/g)?.length ?? 0) >= MIN_LINE_ALNUM);
}
