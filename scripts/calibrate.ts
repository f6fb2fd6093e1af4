/**
 * `npm run calibrate`: the deterministic judge's agreement with the gold set (gold/judge-gold.jsonl,
 * docs/gold-labelling.md), judged over ../shared/traces (or TRACEFOLD_TRACES_DIR), written to
 * gold/judge-calibration.json — the figures the README and the studio show beside every no-impact
 * rate. tests/unit/evaluation/calibration.test.ts fails when the file is not what the current judge
 * gives, so a judge change cannot leave stale figures behind.
 *
 *   npx tsx scripts/calibrate.ts [--check]   (--check: compare, write nothing, exit 1 on a difference)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { computeCalibration, CALIBRATION_FILE } from "./calibration-report";

async function main(): Promise<void> {
  const report = await computeCalibration();
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const file = resolve(__dirname, "..", CALIBRATION_FILE);
  if (process.argv.includes("--check")) {
    const same = readFileSync(file, "utf8") === text;
    console.log(same ? `${CALIBRATION_FILE} is current` : `${CALIBRATION_FILE} is stale: run npm run calibrate`);
    process.exit(same ? 0 : 1);
  }
  writeFileSync(file, text);
  for (const r of [report, report.holdout]) {
    const b = r.binary;
    console.log(
      `${r.gold}: ${r.units} units (${r.stale.length} stale): accuracy ${r.accuracy.pct}% [${r.accuracy.ci95.join(", ")}], κ ${r.kappa.value}; impact vs not: ${b.accuracy.pct}% [${b.accuracy.ci95.join(", ")}], κ ${b.kappa.value}`,
    );
  }
  console.log(`→ ${CALIBRATION_FILE}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
