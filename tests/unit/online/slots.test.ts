import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageAggregator } from "../../../lib/online/assignment/aggregate";
import { estimateOnline } from "../../../lib/online/estimation/estimate";
import { generateUsageLogs } from "../../../lib/online/simulation/generate-logs";
import { hourlyToCsv } from "../../../lib/online/estimation/hourly-csv";
import type { UsageRow } from "../../../lib/online/usage/schema";
import { isSlotAligned, SlotAccumulator, slotStartOf, SLOT_MS } from "../../../lib/online/assignment/slots";

const row = (minute: number, account: string, input: number, surface?: string): UsageRow => ({
  timestamp: Date.UTC(2026, 4, 25, 9, minute, 30),
  account,
  inputTokens: input,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 1,
  ...(surface ? { surface } : {}),
});

test("rows of one account in one quarter hour and surface share a slot; the first line is kept", () => {
  const acc = new SlotAccumulator();
  acc.add(5, row(1, "a@x", 10));
  acc.add(3, row(14, "a@x", 20));
  acc.add(4, row(15, "a@x", 40));
  acc.add(6, row(2, "a@x", 80, "skill-gc"));
  const slots = acc.drain();
  assert.equal(acc.size, 0);
  assert.deepEqual(
    slots.map((s) => [s.firstLine, s.calls, s.input, s.surface, new Date(s.slotStart).toISOString().slice(11, 16)]),
    [
      [3, 2, 30, "", "09:00"],
      [4, 1, 40, "", "09:15"],
      [6, 1, 80, "skill-gc", "09:00"],
    ],
  );
});

test("slot starts are multiples of 15 minutes, and alignment says which instants are on the grid", () => {
  const ms = Date.UTC(2026, 4, 25, 9, 44, 59, 999);
  assert.equal(slotStartOf(ms), Date.UTC(2026, 4, 25, 9, 30));
  assert.equal(slotStartOf(ms) % SLOT_MS, 0);
  assert.equal(isSlotAligned(Date.UTC(2026, 4, 25, 9, 45)), true);
  assert.equal(isSlotAligned(Date.UTC(2026, 4, 25, 9, 46)), false);
});

test("adding slots in first-line order gives the report adding rows gives, in a :45 zone too", () => {
  const rows = [...generateUsageLogs({ seed: 3, accounts: 60, days: 2, start: "2026-05-25", trueReductionPct: 10 })];
  const options = { rule: { kind: "email-pivot" as const, pivot: "o" }, timeZone: "Asia/Kathmandu" };
  const byRow = new UsageAggregator(options);
  const acc = new SlotAccumulator();
  const pending: ReturnType<SlotAccumulator["drain"]> = [];
  rows.forEach((r, i) => {
    byRow.add(r);
    acc.add(i + 2, r);
    if (acc.size > 50) for (const s of acc.drain()) pending.push(s);
  });
  pending.push(...acc.drain());
  const bySlot = new UsageAggregator(options);
  for (const s of pending.sort((a, b) => a.firstLine - b.firstLine)) bySlot.addSlot(s);
  assert.deepEqual(estimateOnline(bySlot, { iterations: 200 }), estimateOnline(byRow, { iterations: 200 }));
});

test("the hourly CSV has the pooled curve with bands, then each day", () => {
  const agg = new UsageAggregator({ rule: { kind: "hash", salt: "s" }, timeZone: "UTC" });
  for (const r of generateUsageLogs({ seed: 5, accounts: 40, days: 2, start: "2026-05-25", trueReductionPct: 10, rule: { kind: "hash", salt: "s" } }))
    agg.add(r);
  const lines = hourlyToCsv(estimateOnline(agg, { iterations: 50 }))
    .trimEnd()
    .split("\n");
  assert.equal(
    lines[0],
    "scope,hour,treatment_mean_input,control_mean_input,reduction_pct,ci95_low,ci95_high,treatment_calls,control_calls,treatment_accounts,control_accounts",
  );
  assert.equal(lines.filter((l) => l.startsWith("pooled,")).length, 14);
  assert.ok(
    lines.filter((l) => l.startsWith("pooled,")).every((l) => l.split(",")[5] !== ""),
    "pooled rows carry a band",
  );
  assert.equal(lines.filter((l) => l.startsWith("2026-05-25,")).length, 14);
  assert.equal(lines.filter((l) => l.startsWith("2026-05-26,")).length, 14);
});
