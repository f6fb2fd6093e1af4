/**
 * Child process of the online benchmark: one pass over a usage log in one mode, timed, with the
 * kernel's peak RSS of this process alone (the parent generated the file; its heap is not ours).
 *
 *   lines      read + UTF-8 decode + split into lines: the I/O floor every mode pays (the baseline)
 *   read       `readUsageBatches` (CSV parse, column mapping, validation), rows discarded
 *   aggregate  `readUsageBatches` + `UsageAggregator` (per account-hour sums), then the clustered
 *              bootstrap on the account totals and the whole report `estimateOnline` builds
 */
import { createReadStream } from "node:fs";
import { UsageAggregator, CALLS, INPUT } from "../../lib/online/assignment/aggregate";
import { clusterBootstrapTotals, reductionOfTotals } from "../../lib/online/estimation/cluster-bootstrap";
import { estimateOnline } from "../../lib/online/estimation/estimate";
import { splitLines } from "../../lib/online/usage/lines";
import { readUsageBatches } from "../../lib/online/usage/read-usage";

const chunks = (file: string) => createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 });
const seconds = (t0: number) => (performance.now() - t0) / 1000;

async function main(): Promise<void> {
  const [mode, file] = process.argv.slice(2) as [string, string];
  const baselineRss = process.memoryUsage().rss;
  const t0 = performance.now();
  let rows = 0;
  let errors = 0;
  let extra: Record<string, unknown> = {};
  if (mode === "lines") {
    for await (const _ of splitLines(chunks(file))) rows++;
    rows--; // the header
  } else if (mode === "read") {
    for await (const batch of readUsageBatches(chunks(file), { format: "csv" })) {
      for (const item of batch) {
        if (item.ok) rows++;
        else errors++;
      }
    }
  } else if (mode === "aggregate") {
    const agg = new UsageAggregator({ rule: { kind: "email-pivot", pivot: "o" }, timeZone: "UTC" });
    for await (const batch of readUsageBatches(chunks(file), { format: "csv" })) {
      for (const item of batch) {
        if (item.ok) agg.add(item.row);
        else errors++;
      }
    }
    rows = agg.counts.rows;
    extra = afterAggregation(agg, seconds(t0));
  } else throw new Error(`unknown mode ${mode}`);
  const total = mode === "aggregate" ? (extra.streamSeconds as number) : seconds(t0);
  process.stdout.write(JSON.stringify({ mode, seconds: total, rows, errors, peakRss: process.resourceUsage().maxRSS * 1024, baselineRss, ...extra }));
}

/** Cell and account counts, then the two bootstrap timings on what the aggregation kept. */
function afterAggregation(agg: UsageAggregator, streamSeconds: number) {
  let cells = 0;
  const arms: [number[][], number[][]] = [[], []];
  for (const account of agg.accounts.values()) {
    cells += account.post.size + account.pre.size;
    const t = [0, 0];
    for (const sums of account.post.values()) ((t[0]! += sums[CALLS]!), (t[1]! += sums[INPUT]!));
    if (t[0]! > 0) arms[account.group === "treatment" ? 0 : 1].push(t);
  }
  const b0 = performance.now();
  const ci = clusterBootstrapTotals(arms, reductionOfTotals, { seed: 1, iterations: 2_000 });
  const bootstrapSeconds = seconds(b0);
  const r0 = performance.now();
  const report = estimateOnline(agg, { seed: 1, iterations: 2_000 });
  const reportSeconds = seconds(r0);
  return {
    streamSeconds,
    used: agg.counts.used,
    accounts: agg.accounts.size,
    cells,
    bootstrapSeconds,
    reportSeconds,
    reductionPct: ci.estimate,
    ci95: [ci.low, ci.high],
    hourlyPoints: report.hourly.length,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
