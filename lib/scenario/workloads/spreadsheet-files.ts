import { CELL_SEPARATOR, sumifsFormula, TRANSACTION_HEADER, transactionLines, workbookDump } from "../fixtures/sheets";
import { money, pad2, PEOPLE, REGIONS } from "../fixtures/vocab";
import type { ScenarioWriter } from "../writer";

/**
 * Workbook contents and anchor-free filler for the spreadsheet-repair workload.
 * Summary money values are drawn through the id registry with a fixed six-digit integer part, so
 * the one planted value is distinct from every other cell and never nested in a longer number.
 */
export interface SummaryFacts {
  header: string[];
  regions: string[];
  /** Cached value of each region's Q3 actual, formatted ("418,276.90"). */
  actuals: string[];
  footnote: string;
  dump: string;
}

/** The Summary sheet dump (header, one row per region with broken SUMIFS text, footnote). */
export function summarySheet(w: ScenarioWriter, file: string, header: string[], regions: string[], footnote: string): SummaryFacts {
  const { rng, ids } = w;
  const cell = (): string => ids.fresh(() => money(rng.int(100_000_00, 999_999_99)));
  const actuals: string[] = [];
  const rows: string[][] = [header];
  regions.forEach((region, i) => {
    const [target, actual] = [cell(), cell()];
    actuals.push(actual);
    const variance = `${rng.chance(0.5) ? "-" : ""}${rng.int(0, 40)}.${rng.int(0, 9)}%`;
    rows.push([region, rng.pick(PEOPLE), target, `${actual} [${sumifsFormula(i + 2, true)}]`, variance, ""]);
  });
  rows.push(["", "", "", "", "", ""], [footnote, "", "", "", "", ""]);
  const lines = rows.map((row) => row.join(CELL_SEPARATOR));
  return { header, regions, actuals, footnote, dump: workbookDump(file, [{ name: "Summary", width: header.length, rows: lines }]) };
}

/** The bulky Data sheet with one credit-note row (cells already joined) spliced in past the middle. */
export function dataSheet(w: ScenarioWriter, file: string, creditRow: string, count: number): string {
  const rows = transactionLines(w.rng, count, 8, CELL_SEPARATOR);
  rows.splice(Math.floor(count * 0.55), 0, creditRow);
  const header = TRANSACTION_HEADER.join(CELL_SEPARATOR);
  return workbookDump(file, [{ name: "Data", width: TRANSACTION_HEADER.length, rows: [header, ...rows] }]);
}

/** System prompt: tool descriptions and the minimal-edit house rule. */
export const SPREADSHEET_SYSTEM = [
  "You are a spreadsheet-repair agent in /workspace. Tools: read_file(path, sheet?) prints files (XLSX as text,",
  "one line per row, formulas in brackets); write_file(path, content); exec(cmd) runs shell commands, including",
  "xlsx-tool (set, undo, recalc, deps, backup); send_message(to, text, attachment?) sends chat messages.",
  "Rules: make the smallest edit that fixes the problem, keep formulas working, and explain what changed.",
].join("\n");

/** A helper-script function body; `NAME` is replaced once per copy (a whole-block replace is cheap). */
const PY_FUNCTION = [
  "def load_rows(path):",
  "    with open(path, newline='') as fh:",
  "        return list(csv.DictReader(fh))",
  "",
  "def NAME(rows):",
  "    out = defaultdict(Decimal)",
  "    for row in rows:",
  "        if row['Status'] == 'posted':",
  "            out[row['Region']] += Decimal(row['Amount'])",
  "    return out",
  "",
].join("\n");

/** One anchor-free inspection step: a CSV export, a dependency listing or a helper script. */
export function spreadsheetFiller(w: ScenarioWriter, file: string): void {
  const { rng } = w;
  const kind = rng.next();
  if (kind < 0.45) {
    const month = rng.int(7, 9);
    const path = `exports/${rng.pick(REGIONS).toLowerCase()}_2025-${pad2(month)}.csv`;
    const rows = transactionLines(rng, rng.int(30, 160), month, ",");
    w.call("read_file", { path }, `${TRANSACTION_HEADER.join(",")}\n${rows.join("\n")}`);
  } else if (kind < 0.8) {
    const lines: string[] = [];
    const count = rng.int(30, 110);
    for (let i = 0; i < count; i += 1) {
      const row = rng.int(2, 13);
      lines.push(`Dashboard!${String.fromCharCode(66 + (i % 6))}${i + 2} <- Summary!D${row} via ${sumifsFormula(row, rng.chance(0.3))}`);
    }
    w.call("exec", { cmd: `xlsx-tool deps ${file} --sheet Dashboard` }, lines.join("\n"));
  } else {
    const repeats = rng.int(4, 14);
    const body: string[] = ["import csv", "from collections import defaultdict", "from decimal import Decimal", ""];
    for (let i = 0; i < repeats; i += 1) body.push(PY_FUNCTION.replace("NAME", `totals_v${i}`));
    w.call("read_file", { path: `scripts/${rng.pick(["reconcile", "totals", "check_fx", "rollup"])}.py` }, body.join("\n"));
  }
}

/** Padding-turn requests; none refers to a planted value. */
export const SPREADSHEET_FOLLOW_UPS = [
  "Also check that the Dashboard sheet still points at the right cells.",
  "Can you see whether the August export has pending rows that should be posted?",
  "Check if any region is missing from the Data sheet entirely.",
  "Look at whether the FX conversion script touches this workbook.",
];

/** The footnote under the Summary table, which a late turn asks to restore word for word. */
export function footnoteText(w: ScenarioWriter): string {
  const { rng } = w;
  return `Figures exclude intercompany transfers booked after ${rng.int(20, 30)} Sep and are reconciled against memo FIN-${rng.digits(4)} (${rng.pick(PEOPLE)}).`;
}
