/**
 * Writes a week of synthetic usage logs with a known true reduction to a CSV — the online studio's
 * demo data and a ready input for `tracefold online`.
 *
 *   npx tsx scripts/make-usage-log.ts [out.csv] [--accounts N] [--days N] [--reduction PCT] [--seed N] [--tz ZONE]
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { generateUsageLogs } from "@/lib/online/simulation/generate-logs";
import { USAGE_CSV_HEADER, usageRowToCsv } from "@/lib/online/usage/write-csv";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    accounts: { type: "string", default: "2000" },
    days: { type: "string", default: "7" },
    reduction: { type: "string", default: "12" },
    seed: { type: "string", default: "20260525" },
    start: { type: "string", default: "2026-05-25" },
    tz: { type: "string", default: "UTC" },
  },
});
async function main(): Promise<void> {
  const out = positionals[0] ?? "data/usage-week.csv";
  const stream = createWriteStream(out, { encoding: "utf8" });
  let rows = 0;
  let buffer = `${USAGE_CSV_HEADER}\n`;
  for (const row of generateUsageLogs({
    seed: Number(values.seed),
    accounts: Number(values.accounts),
    days: Number(values.days),
    start: values.start,
    timeZone: values.tz,
    trueReductionPct: Number(values.reduction),
  })) {
    buffer += `${usageRowToCsv(row)}\n`;
    rows++;
    if (buffer.length > 1 << 20) {
      if (!stream.write(buffer)) await once(stream, "drain");
      buffer = "";
    }
  }
  stream.end(buffer);
  await once(stream, "finish");
  console.log(`wrote ${rows.toLocaleString("en-US")} calls to ${out} (true reduction ${values.reduction}%, seed ${values.seed})`);
}

void main();
