import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Group, UsageRow } from "@/lib/online/usage/schema";
import { USAGE_CSV_HEADER, usageRowToCsv } from "@/lib/online/usage/write-csv";

const BIN = resolve(__dirname, "../../cli/bin.mjs");

/** Runs `tracefold online …` in a child process, as a user would. */
export function runOnlineCli(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, "online", ...args], { encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Writes rows as a canonical usage CSV (what `guessMapping` maps without help). */
export function writeUsageCsv(path: string, rows: readonly UsageRow[]): void {
  writeFileSync(path, [USAGE_CSV_HEADER, ...rows.map(usageRowToCsv)].join("\n") + "\n");
}

/**
 * What the CLI should report for these rows, computed the slow, obvious way: keep the rows that
 * `keep` accepts, group them by the label the generator wrote, sum calls and prompt tokens.
 */
export function expectedGroups(rows: readonly UsageRow[], keep: (row: UsageRow) => boolean) {
  const out = {} as Record<Group, { calls: number; input: number; accounts: Set<string> }>;
  for (const g of ["treatment", "control"] as const) out[g] = { calls: 0, input: 0, accounts: new Set() };
  for (const row of rows) {
    if (!keep(row)) continue;
    const g = out[row.group as Group];
    g.calls++;
    g.input += row.inputTokens;
    g.accounts.add(row.account);
  }
  return out;
}

/** The UTC hour window the CLI applies by default (08:00–22:00). */
export const inDefaultWindow = (row: UsageRow) => new Date(row.timestamp).getUTCHours() >= 8 && new Date(row.timestamp).getUTCHours() < 22;
