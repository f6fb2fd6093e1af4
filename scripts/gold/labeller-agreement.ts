/**
 * Agreement between two careful readers on the gold units both labelled (a second, independent
 * label for a sample of cuts), written to gold/labeller-agreement.json: how reliable the gold set
 * itself is — the ceiling any judge's agreement with it can be read against.
 *
 *   npx tsx scripts/gold/labeller-agreement.ts --second DIR [--gold gold/judge-gold.jsonl]
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseGold } from "../../lib/evaluation/calibration/gold";
import { VIEW_VERDICTS } from "../../lib/review/label-schema";
import { confusionMatrix } from "../../lib/stats/agreement";
import { cohenKappa } from "../../lib/stats/kappa";
import { wilson } from "../../lib/stats/wilson";

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1]!;
  if (fallback === undefined) throw new Error(`missing ${name}`);
  return fallback;
}

const gold = parseGold(readFileSync(resolve(arg("--gold", "gold/judge-gold.jsonl")), "utf8")).lines;
const first = new Map(gold.map((l) => [l.unit.id, l.label.verdict]));
const pairs: { unit: string; first: string; second: string }[] = [];
const dir = arg("--second");
for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()) {
  for (const raw of readFileSync(join(dir, file), "utf8").split("\n").filter(Boolean)) {
    const { unit, verdict } = JSON.parse(raw) as { unit: string; verdict: string };
    const primary = first.get(unit);
    if (primary) pairs.push({ unit, first: primary, second: verdict });
  }
}
const { counts } = confusionMatrix(pairs.map((p) => p.first), pairs.map((p) => p.second), [...VIEW_VERDICTS]);
const agree = pairs.filter((p) => p.first === p.second).length;
const interval = wilson(agree, pairs.length);
const kappa = cohenKappa(counts);
const pct = (x: number) => Math.round(x * 10_000) / 100;
const report = {
  units: pairs.length,
  cuts: new Set(gold.filter((l) => pairs.some((p) => p.unit === l.unit.id)).map((l) => `${l.unit.sessionId}#${l.unit.cut}`)).size,
  labels: [...VIEW_VERDICTS],
  matrix: counts,
  agreement: { pct: pct(agree / pairs.length), ci95: [pct(interval.low), pct(interval.high)] },
  kappa: Number.isFinite(kappa.kappa) ? Math.round(kappa.kappa * 1000) / 1000 : null,
  disagreements: pairs.filter((p) => p.first !== p.second),
};
writeFileSync(resolve("gold/labeller-agreement.json"), `${JSON.stringify(report, null, 2)}\n`);
console.log(`${report.units} units in ${report.cuts} cuts labelled twice: ${report.agreement.pct}% agree [${report.agreement.ci95.join(", ")}], κ ${report.kappa}`);
