import { round, type EvaluationRecord } from "./aggregate";

/**
 * Judge sensitivity (issue 16; seed 000's Limitations ask for "judge-sensitivity analysis"): the
 * no-impact rates recomputed under variants of the dependency judge, and whether the ranking of
 * policies they imply holds. Variants:
 * - the verdict rule: `visible` (every dependency visible), `restorable` (none lost) and the
 *   `headline` rule the run reports;
 * - each dependency kind switched off in turn (`no-numbers`, `no-identifiers`, `no-quoted`,
 *   `no-constraints`, `no-locators`): a cut counts as no-impact under the headline rule when no
 *   dependency of another kind is lost.
 * Recomputed from each record's per-kind counts, so no unit is judged again. The ranking orders
 * policies by rate, highest first, ties by id; `none` (the control) is left out. A variant
 * `holds` when its order equals the headline's; `swaps` lists the pairs whose order it reverses.
 */
export interface SensitivityVariant {
  variant: string;
  description: string;
  rates: Record<string, number>;
  ranking: string[];
  holds: boolean;
  topHolds: boolean;
  swaps: [string, string][];
}

export interface SensitivityReport {
  /** Which records: `own` (each policy at its own settings) or `matched`. */
  records: "own" | "matched";
  /** Variants whose ranking equals the headline's, of all variants (the headline included). */
  holds: number;
  of: number;
  variants: SensitivityVariant[];
}

type Verdict = (r: EvaluationRecord) => boolean | undefined;

const KIND_GROUPS: [string, string, string[]][] = [
  ["no-numbers", "numbers not counted", ["number"]],
  ["no-identifiers", "code identifiers not counted", ["identifier"]],
  ["no-quoted", "quoted and verbatim text not counted", ["verbatim"]],
  ["no-constraints", "user constraints not counted", ["constraint"]],
  ["no-locators", "urls, paths and ids not counted", ["url", "path", "id"]],
];

function variants(): [string, string, Verdict][] {
  const out: [string, string, Verdict][] = [
    ["headline", "the run's rule: nothing lost (visible or restorable)", (r) => r.noImpact],
    ["visible", "every dependency visible, no restore", (r) => r.visibleNoImpact],
    ["restorable", "nothing lost, restores allowed", (r) => r.restorableNoImpact],
  ];
  for (const [name, description, kinds] of KIND_GROUPS) {
    out.push([name, description, (r) => (r.byKind ? Object.entries(r.byKind).every(([kind, c]) => kinds.includes(kind) || c.lost === 0) : undefined)]);
  }
  return out;
}

/** Undefined when the records carry no per-kind counts (an LLM judge's run). */
export function judgeSensitivity(records: readonly EvaluationRecord[], label: SensitivityReport["records"]): SensitivityReport | undefined {
  const judged = records.filter((r) => r.policy !== "none");
  if (judged.length === 0 || judged.some((r) => r.byKind === undefined)) return undefined;
  const computed = variants().map(([variant, description, verdict]) => ({ variant, description, rates: ratesOf(judged, verdict) }));
  const base = rankingOf(computed[0]!.rates);
  const out = computed.map(({ variant, description, rates }) => {
    const ranking = rankingOf(rates);
    return { variant, description, rates, ranking, holds: sameOrder(ranking, base), topHolds: ranking[0] === base[0], swaps: swapsOf(base, ranking) };
  });
  return { records: label, holds: out.filter((v) => v.holds).length, of: out.length, variants: out };
}

function ratesOf(records: readonly EvaluationRecord[], verdict: Verdict): Record<string, number> {
  const tally = new Map<string, { yes: number; n: number }>();
  for (const r of records) {
    const v = verdict(r);
    if (v === undefined) continue;
    const t = tally.get(r.policy) ?? { yes: 0, n: 0 };
    t.n++;
    if (v) t.yes++;
    tally.set(r.policy, t);
  }
  return Object.fromEntries([...tally].map(([id, t]) => [id, round((100 * t.yes) / t.n)]));
}

function rankingOf(rates: Record<string, number>): string[] {
  return Object.keys(rates).sort((a, b) => rates[b]! - rates[a]! || a.localeCompare(b));
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** Pairs (higher, lower) in `base` that `other` puts the other way round. */
function swapsOf(base: readonly string[], other: readonly string[]): [string, string][] {
  const position = new Map(other.map((id, i) => [id, i]));
  const swaps: [string, string][] = [];
  for (let i = 0; i < base.length; i++) {
    for (let j = i + 1; j < base.length; j++) {
      const a = position.get(base[i]!);
      const b = position.get(base[j]!);
      if (a !== undefined && b !== undefined && a > b) swaps.push([base[i]!, base[j]!]);
    }
  }
  return swaps;
}
