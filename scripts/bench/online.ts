import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateUsageLogs } from "../../lib/online/simulation/generate-logs";
import { USAGE_CSV_HEADER, usageRowToCsv } from "../../lib/online/usage/write-csv";
import { round } from "./tokens";

/** The synthetic period is fixed (accounts × days); more rows means denser traffic, not more cells. */
const ACCOUNTS = 5_000;
const DAYS = 7;
/** The generator's diurnal profile averages ≈ 0.95 of `callsPerAccountDay`; 15% spare, then cut at `rows`. */
const DENSITY = 0.95 / 1.15;
const TRUE_REDUCTION = 12;
const MODES = ["lines", "read", "aggregate"] as const;

interface WorkerResult {
  mode: string;
  seconds: number;
  rows: number;
  errors: number;
  peakRss: number;
  baselineRss: number;
  streamSeconds?: number;
  used?: number;
  accounts?: number;
  cells?: number;
  bootstrapSeconds?: number;
  reportSeconds?: number;
  reductionPct?: number;
  ci95?: [number, number];
}

/** Streams `rows` synthetic calls (known true reduction) to a CSV; the file never sits in memory. */
async function writeLog(file: string, rows: number): Promise<number> {
  const out = createWriteStream(file, { encoding: "utf8" });
  const callsPerAccountDay = rows / (ACCOUNTS * DAYS * DENSITY);
  let written = 0;
  let buffer = `${USAGE_CSV_HEADER}\n`;
  for (const row of generateUsageLogs({
    seed: 20261123,
    accounts: ACCOUNTS,
    days: DAYS,
    start: "2026-05-25",
    trueReductionPct: TRUE_REDUCTION,
    callsPerAccountDay,
  })) {
    if (written === rows) break;
    buffer += `${usageRowToCsv(row)}\n`;
    written++;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  }
  out.end(buffer);
  await once(out, "finish");
  return written;
}

function runWorker(mode: string, file: string): WorkerResult {
  const run = spawnSync(process.execPath, ["--import", "tsx", resolve(__dirname, "online-worker.ts"), mode, file], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`online worker (${mode}) failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as WorkerResult;
}

/**
 * Online aggregation at scale: a `rows`-call usage log streamed from disk three ways — lines only
 * (the baseline, same run), parsed and validated, parsed and aggregated — each in its own process
 * for an honest peak RSS; then the account-clustered bootstrap (2,000 replicates) and the whole
 * report on what the aggregation kept. The file is deleted afterwards.
 */
export async function benchOnline(rows: number) {
  const dir = mkdtempSync(join(tmpdir(), "tracefold-bench-online-"));
  try {
    const file = join(dir, "usage.csv");
    const g0 = performance.now();
    const written = await writeLog(file, rows);
    const generateSeconds = (performance.now() - g0) / 1000;
    const mb = statSync(file).size / 1e6;
    const results = MODES.map((mode) => runWorker(mode, file));
    const lines = results[0]!;
    const table = results.map((r) => ({
      mode: r.mode,
      rows: r.rows,
      errors: r.errors,
      seconds: round(r.seconds),
      rowsPerSec: Math.round(r.rows / r.seconds),
      MBps: round(mb / r.seconds),
      vsLines: round(r.seconds / lines.seconds),
      peakRssMB: round(r.peakRss / 1e6),
    }));
    const agg = results[2]!;
    return {
      table,
      summary: {
        rows: written,
        fileMB: round(mb),
        generateSeconds: round(generateSeconds),
        accounts: agg.accounts,
        usedRows: agg.used,
        cells: agg.cells,
        peakRssMB: round(agg.peakRss / 1e6),
        bytesPerCell: Math.round((agg.peakRss - agg.baselineRss) / agg.cells!),
        bootstrapSeconds: round(agg.bootstrapSeconds!),
        reportSeconds: round(agg.reportSeconds!),
        trueReductionPct: TRUE_REDUCTION,
        reductionPct: round(agg.reductionPct!),
        ci95: agg.ci95!.map(round),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Fails the bench loudly when a pass's memory grew past the bound (it must not track rows). */
export function assertOnlineMemory(table: readonly { mode: string; rows: number; peakRssMB: number }[], boundMB: number): void {
  for (const r of table) {
    if (r.peakRssMB > boundMB) {
      throw new Error(
        `online ${r.mode}: peak RSS ${r.peakRssMB} MB over ${r.rows.toLocaleString("en-US")} rows exceeds the ${boundMB} MB bound (BENCH_ONLINE_MAX_RSS_MB) — memory is not bounded by account-hours`,
      );
    }
  }
}
