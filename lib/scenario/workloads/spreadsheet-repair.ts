import { CELL_SEPARATOR, sumifsFormula } from "../fixtures/sheets";
import { pad2, REGIONS } from "../fixtures/vocab";
import type { DraftPlant } from "../writer";
import { dataSheet, footnoteText, SPREADSHEET_FOLLOW_UPS, SPREADSHEET_SYSTEM, spreadsheetFiller, summarySheet } from "./spreadsheet-files";
import type { Workload } from "./workload";

/**
 * "Fix this report spreadsheet without changing the existing header and formulas."
 * Early turns read the workbook, make a backup, break the header with a whole-table rewrite, take
 * the user's "do not replace the table header" correction, patch only the broken cells and
 * recalculate (first run fails). Late turns need the pre-fix value, the footnote wording, the
 * header contract, a credit-note row buried in the Data sheet, the backup path and the good output.
 */
export const spreadsheetRepair: Workload = (w) => {
  const { rng, ids } = w;
  const file = `reports/${rng.pick(["q3_regional", "q3_sales_by_region", "fy_q3_pipeline", "regional_actuals"])}.xlsx`;
  const stem = file.slice(8, -5);
  const fy = `FY${rng.int(24, 29)}`;
  const headerCells = [
    "Region",
    rng.pick(["Account Owner", "Owner", "Regional Lead"]),
    `${fy} Target`,
    `${fy} Q3 Actual`,
    "Variance %",
    rng.pick(["Notes", "Comment", "Remarks"]),
  ];
  const header = ids.claim(headerCells.join(CELL_SEPARATOR));
  const regions = rng.sample(REGIONS, 12);
  const footnote = ids.claim(footnoteText(w));
  const summary = summarySheet(w, file, headerCells, regions, footnote);
  const pick = rng.int(0, regions.length - 1);
  const [region, before] = [regions[pick] ?? "Nordics", summary.actuals[pick] ?? ""];
  const creditCells = [ids.fresh(() => `CN-${rng.digits(5)}`), `2025-08-${pad2(rng.int(1, 28))}`, rng.pick(regions), `-${rng.int(10_000, 60_000)}.00`];
  const creditRow = creditCells.join(CELL_SEPARATOR);
  const backup = ids.fresh(() => `backups/${stem}.20250303-${rng.hex(6)}.xlsx`);
  const staleOut = ids.fresh(() => `reports/out/${stem}.fixed-${rng.hex(6)}.xlsx`);
  const output = ids.fresh(() => `reports/out/${stem}.fixed-${rng.hex(6)}.xlsx`);
  const [recalcFailed, recalcOk] = [ids.fresh(() => `RECALC-${rng.digits(5)}`), ids.fresh(() => `RECALC-${rng.digits(5)}`)];
  const p = {} as Record<"before" | "footnote" | "credit" | "backup" | "header" | "output", DraftPlant>;
  const template = sumifsFormula(2, false).replace("$A2", "$A{row}");

  const early = [
    () => {
      w.user(`Fix the report spreadsheet ${file}: the Q3 actuals in the Summary sheet don't match the Data sheet.\nKeep the existing formulas working.`);
      w.call(
        "exec",
        { cmd: "ls -la reports/" },
        `total 4128\n-rw-r--r-- 1 agent staff 2113420 Mar  3 08:41 ${file.slice(8)}\n-rw-r--r-- 1 agent staff   40960 Mar  3 08:12 README.md`,
      );
      const sum = w.call("read_file", { path: file, sheet: "Summary" }, summary.dump);
      p.before = w.plant(
        "evidence_detail",
        before,
        sum.result,
        `${region}'s Q3 actual before the fix (cached value of the broken SUMIFS); the changelog quotes it later.`,
      );
      p.footnote = w.plant("verbatim_source", footnote, sum.result, "Footnote under the Summary table; the user later asks to restore it exactly.");
      const data = w.call("read_file", { path: file, sheet: "Data" }, dataSheet(w, file, `${creditRow}${CELL_SEPARATOR}credit note`, rng.int(500, 800)));
      p.credit = w.plant(
        "recovery_routing",
        creditRow,
        data.result,
        "One credit-note row in a bulky Data sheet dump; a late turn asks about it only by topic.",
      );
      const bak = w.call("exec", { cmd: `xlsx-tool backup ${file}` }, `backup written to ${backup} (2.0 MB)`);
      p.backup = w.plant("locator_handle", backup, bak.result, "Backup path made before editing; a late turn copies it for reviewers.");
      w.say("Found it: column D's SUMIFS match regions against Data!B (dates) instead of Data!C. I'll rewrite the Summary table with corrected formulas.");
      const rewrite = `Region,Owner,Target,Actual,Variance\n${regions.map((r, i) => `${r},,,${sumifsFormula(i + 2, false)},`).join("\n")}`;
      w.call("write_file", { path: "out/summary_fixed.csv", content: rewrite }, "Wrote 1 file: out/summary_fixed.csv");
      const broke = "wrote 13 rows to Summary!A1:E13\nwarning: header labels changed; 12 formulas in sheet Dashboard now return #REF!";
      w.call("exec", { cmd: `xlsx-tool set ${file} --sheet Summary --range A1:E13 --from out/summary_fixed.csv` }, broke, { isError: true });
    },
    () => {
      const ask = w.user(`Stop: do not replace the table header. Row 1 must stay exactly:\n${header}\nOnly patch the broken cells below it.`);
      p.header = w.plant("behavioral_contract", header, ask, "User correction after a whole-table rewrite broke the header; every later edit must keep it.");
      w.call("exec", { cmd: `xlsx-tool undo ${file}` }, "reverted Summary!A1:E13 to the previous revision; Dashboard formulas resolve again");
      const patch = `xlsx-tool set ${file} --sheet Summary --cells D2:D13 --formula-template '${template}'`;
      w.call("exec", { cmd: patch }, `error: ${file} is locked by another process (~$${file.slice(8)}); close Excel or pass --force-unlock`, { isError: true });
      const ok = w.call("exec", { cmd: `${patch} --force-unlock --expect-header '${header}'` }, "patched 12 cells in Summary!D2:D13; header row unchanged");
      w.also(p.header, ok.call);
      w.say("Reverted the rewrite and patched only D2:D13; the header row is untouched.");
    },
    () => {
      w.user("Recalculate and make sure the totals now match the Data sheet.");
      w.call(
        "exec",
        { cmd: `xlsx-tool recalc ${file} --out reports/out/` },
        `${recalcFailed} FAILED: circular reference at Summary!E9\npartial output: ${staleOut}`,
        { isError: true },
      );
      w.call("exec", { cmd: `xlsx-tool set ${file} --sheet Summary --cells E9 --formula '=IFERROR(D9/C9-1,0)'` }, "patched 1 cell in Summary!E9");
      const ok = w.call(
        "exec",
        { cmd: `xlsx-tool recalc ${file} --out reports/out/` },
        `${recalcOk} OK: 0 errors, totals match Data (delta 0.00)\noutput: ${output}`,
      );
      p.output = w.plant("live_state", output, ok.result, "Output of the recalc that succeeded; the failed run's partial output is stale.", staleOut);
      w.also(p.output, w.say(`Recalculated: ${recalcOk} succeeded, totals match. Fixed file: ${output}`));
    },
  ];

  const late = [
    () => {
      w.user(`Add a changelog entry in out/CHANGELOG.md: for ${region}, record what the Q3 actual was before your fix.`);
      const content = `## Summary fix\n- ${region}: Q3 actual before fix was ${before} (broken SUMIFS matched Data!B).\n`;
      w.use(p.before, w.call("write_file", { path: "out/CHANGELOG.md", content }, "Wrote 1 file: out/CHANGELOG.md").call);
    },
    () => {
      w.user("The footnote under the Summary table is gone. Restore the original footnote text exactly.");
      const cmd = `xlsx-tool set ${file} --sheet Summary --cell A15 --value '${footnote}' --expect-header '${header}'`;
      const call = w.call("exec", { cmd }, "patched 1 cell in Summary!A15; header row unchanged").call;
      w.use(p.footnote, call);
      w.use(p.header, call);
    },
    () => {
      w.user("Why is one region so low this quarter? I think there was a big credit note somewhere in the raw Data sheet.");
      w.use(p.credit, w.say(`Yes, the Data sheet has a credit note row: ${creditRow}. It is posted in August and alone explains the drop.`));
    },
    () => {
      w.user("Put a copy of the backup you made before editing into audit/ for the reviewers.");
      w.use(p.backup, w.call("exec", { cmd: `mkdir -p audit && cp ${backup} audit/` }, "").call);
    },
    () => {
      w.user("Send the fixed file to finance.");
      w.use(p.output, w.call("send_message", { to: "finance", text: "Fixed Q3 report attached.", attachment: output }, "sent").call);
      w.say("Sent to finance.");
    },
  ];

  const followUp = (): void => {
    w.user(rng.pick(SPREADSHEET_FOLLOW_UPS));
    w.say("Checked; no further changes needed.");
  };
  return { system: SPREADSHEET_SYSTEM, early, late, followUp, filler: () => spreadsheetFiller(w, file) };
};
