import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageAggregator } from "@/lib/online/assignment/aggregate";
import { clusterBootstrapTotals, reductionOfTotals } from "@/lib/online/estimation/cluster-bootstrap";
import { estimateOnline } from "@/lib/online/estimation/estimate";
import { generateUsageLogs } from "@/lib/online/simulation/generate-logs";
import { clusterBootstrapMeanDiff, type ClusteredValue } from "@/lib/stats/bootstrap";
import type { UsageRow } from "@/lib/online/usage/schema";

function near(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);
}

function aggregate(rows: Iterable<UsageRow>, extra: Partial<ConstructorParameters<typeof UsageAggregator>[0]> = {}) {
  const agg = new UsageAggregator({ rule: { kind: "email-pivot", pivot: "o" }, timeZone: "UTC", ...extra });
  for (const row of rows) agg.add(row);
  return agg;
}

test("summed-cluster bootstrap gives the same interval as lib/stats clusterBootstrapMeanDiff on the calls", () => {
  const rows = [...generateUsageLogs({ seed: 7, accounts: 40, days: 1, start: "2026-05-25", trueReductionPct: 15 })];
  const calls: Record<string, ClusteredValue[]> = { treatment: [], control: [] };
  const sums: Record<string, Map<string, number[]>> = { treatment: new Map(), control: new Map() };
  for (const r of rows) {
    calls[r.group!]!.push({ cluster: r.account, value: r.inputTokens });
    const s = sums[r.group!]!.get(r.account) ?? [0, 0];
    s[0]! += 1;
    s[1]! += r.inputTokens;
    sums[r.group!]!.set(r.account, s);
  }
  const reference = clusterBootstrapMeanDiff(calls.treatment!, calls.control!, { seed: 3, iterations: 300 });
  const ours = clusterBootstrapTotals([[...sums.treatment!.values()], [...sums.control!.values()]], reductionOfTotals, { seed: 3, iterations: 300 });
  assert.ok(Math.abs(ours.estimate + 100 * reference.relative.estimate) < 1e-9);
  assert.ok(Math.abs(ours.low + 100 * reference.relative.high) < 1e-9, `${ours.low} vs ${-100 * reference.relative.high}`);
  assert.ok(Math.abs(ours.high + 100 * reference.relative.low) < 1e-9);
});

test("the report matches hand-computed means, counts and reduction on a tiny log", () => {
  const at = (h: number) => Date.parse(`2026-05-25T${String(h).padStart(2, "0")}:10:00Z`);
  const row = (account: string, h: number, input: number): UsageRow => ({
    timestamp: at(h),
    account,
    inputTokens: input,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
  });
  const agg = aggregate([
    row("pia@x", 9, 80),
    row("pia@x", 9, 100),
    row("quinn@x", 10, 60),
    row("ann@x", 9, 100),
    row("bob@x", 10, 100),
    row("bob@x", 23, 999),
  ]);
  const report = estimateOnline(agg, { iterations: 200 });
  assert.deepEqual([report.groups.treatment.calls, report.groups.treatment.accounts, report.groups.treatment.meanInputTokens], [3, 2, 80]);
  assert.deepEqual([report.groups.control.calls, report.groups.control.accounts, report.groups.control.meanInputTokens], [2, 2, 100]);
  near(report.reductionPct, 20);
  assert.deepEqual(
    report.hourly.map((h) => [h.hour, h.treatment, h.control, h.calls.treatment, h.accounts.control]),
    [
      [9, 90, 100, 2, 1],
      [10, 60, 100, 1, 1],
    ],
  );
  near(report.hourly[0]!.reductionPct!, 10);
  near(report.peakReductionPct!, 40);
  assert.equal(report.assignment.randomised, false);
  assert.equal(report.counts.outsideWindow, 1);
});

test("the 95% interval covers the known true reduction in ≥ 90% of 40 heavy-tailed logs", () => {
  const truth = 12;
  let covered = 0;
  const estimates: number[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    const report = estimateOnline(
      aggregate(generateUsageLogs({ seed, accounts: 300, days: 1, start: "2026-05-25", trueReductionPct: truth, volumeSigma: 1.3, accountSizeSigma: 0.8 })),
      { seed, iterations: 400, hourlyIntervals: false },
    );
    estimates.push(report.reductionPct);
    if (report.ci95[0] <= truth && truth <= report.ci95[1]) covered++;
  }
  assert.ok(covered >= 36, `covered ${covered}/40`);
  const meanEstimate = estimates.reduce((a, b) => a + b, 0) / estimates.length;
  assert.ok(Math.abs(meanEstimate - truth) < 4, `mean estimate ${meanEstimate}`);
});

test("difference-in-differences removes a pre-existing gap; volatile windows and other surfaces are excluded", () => {
  const rows = [
    ...generateUsageLogs({ seed: 11, accounts: 300, days: 4, preDays: 2, start: "2026-05-25", trueReductionPct: 15, accountSizeSigma: 0.3, volumeSigma: 0.5 }),
  ];
  // A non-randomised split can start unequal: treatment accounts are 10% larger all along.
  const skewed = rows.map((r) =>
    r.group === "treatment" ? { ...r, inputTokens: Math.round(r.inputTokens * 1.1), cachedInputTokens: 0, cacheWriteTokens: 0 } : r,
  );
  const report = estimateOnline(aggregate(skewed, { rolloutAt: Date.parse("2026-05-27T00:00:00Z") }), { iterations: 300, hourlyIntervals: false });
  assert.ok(report.did, "a pre-period was given");
  assert.ok(report.did!.preReductionPct < -2, `pre ${report.did!.preReductionPct}`);
  assert.ok(report.did!.ci95[0] <= 15 && 15 <= report.did!.ci95[1], `did ${report.did!.didPct} [${report.did!.ci95}]`);
  assert.ok(Math.abs(report.reductionPct - 15) > Math.abs(report.did!.didPct - 15));

  const volatile = { start: Date.parse("2026-05-28T00:00:00Z"), end: Date.parse("2026-05-29T00:00:00Z") };
  const agg = aggregate(rows, { volatile: [volatile], surfaces: ["context-gc"] });
  assert.ok(agg.counts.volatile > 0 && agg.counts.otherSurface > 0);
  for (const account of agg.accounts.values())
    for (const key of account.post.keys()) assert.notEqual(Math.floor(key / 24), Math.floor(volatile.start / 86_400_000));
});

test("cost per call shows a cache break: fewer input tokens, more cache writes, a higher bill", () => {
  const at = Date.parse("2026-05-25T10:00:00Z");
  const control: UsageRow = { timestamp: at, account: "ann@x", inputTokens: 10_000, cachedInputTokens: 9_000, cacheWriteTokens: 1_000, outputTokens: 100 };
  const treatment: UsageRow = { timestamp: at, account: "pia@x", inputTokens: 8_500, cachedInputTokens: 0, cacheWriteTokens: 8_500, outputTokens: 100 };
  const report = estimateOnline(aggregate([control, treatment]), { iterations: 50 });
  near(report.reductionPct, 15);
  assert.ok(report.cost.reductionPct < -300, `cost change ${report.cost.reductionPct}%`);
  // control: 9000×0.3 + 1000×3.75 + 100×15 = 7950 µ$; treatment: 8500×3.75 + 1500 = 33375 µ$.
  assert.ok(Math.abs(report.groups.control.costUsd - 0.00795) < 1e-12);
  assert.ok(Math.abs(report.groups.treatment.costUsd - 0.033375) < 1e-12);
});
