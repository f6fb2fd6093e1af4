import { existsSync, createWriteStream } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { once } from "node:events";
import { join } from "node:path";
import { generateUsageLogs } from "@/lib/online/simulation/generate-logs";
import { USAGE_CSV_HEADER, usageRowToCsv } from "@/lib/online/usage/write-csv";
import type { Db } from "../db/client";
import { importUsageLog, type UsageImportOutcome } from "../online/import-usage-log";
import type { BlobStore } from "../storage/blob-store";

/**
 * The demo week: 2,000 accounts at 6 calls a day on average (≈ 80,000 calls, seconds to seed), a
 * true 12% reduction, the same bytes on every machine. Many light accounts rather than a few heavy
 * ones keep the account-clustered interval narrow enough to read.
 */
export const DEMO_USAGE = { seed: 20260525, accounts: 2_000, callsPerAccountDay: 6, days: 7, start: "2026-05-25", trueReductionPct: 12 } as const;

/**
 * Seeds the online A/B demo: writes the synthetic week as CSV under `<dataDir>/demo` (once) and
 * imports it like an upload. Idempotent: the same bytes are recognised by sha256 and skipped.
 */
export async function seedDemoUsage(db: Db, store: BlobStore, options: { dataDir: string }): Promise<{ file: string; outcome: UsageImportOutcome }> {
  const dir = join(options.dataDir, "demo");
  await mkdir(dir, { recursive: true });
  const file = join(dir, `usage-week-${DEMO_USAGE.seed}.csv`);
  if (!existsSync(file)) await writeDemoCsv(file);
  return { file, outcome: await importUsageLog({ db, store, path: file }) };
}

async function writeDemoCsv(file: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const stream = createWriteStream(temp, { encoding: "utf8" });
  let buffer = `${USAGE_CSV_HEADER}\n`;
  for (const row of generateUsageLogs(DEMO_USAGE)) {
    buffer += `${usageRowToCsv(row)}\n`;
    if (buffer.length > 1 << 20) {
      if (!stream.write(buffer)) await once(stream, "drain");
      buffer = "";
    }
  }
  stream.end(buffer);
  await once(stream, "finish");
  await rename(temp, file);
}
