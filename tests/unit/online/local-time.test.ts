import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageAggregator } from "@/lib/online/assignment/aggregate";
import { createLocalClock, parseWindow } from "@/lib/online/assignment/local-time";

test("local hours follow DST: Europe/Paris spring forward and fall back", () => {
  const paris = createLocalClock("Europe/Paris");
  // 2026-03-29: 01:59:59 UTC+1 → 03:00 UTC+2. 00:30Z is 01:30 local, 01:30Z is 03:30 local.
  assert.deepEqual(paris(Date.parse("2026-03-29T00:30:00Z")), { date: "2026-03-29", day: 20541, hour: 1, minuteOfDay: 90 });
  assert.equal(paris(Date.parse("2026-03-29T01:30:00Z")).hour, 3);
  // 2026-10-25: 03:00 UTC+2 → 02:00 UTC+1: 00:30Z and 01:30Z are both 02:30 local.
  assert.equal(paris(Date.parse("2026-10-25T00:30:00Z")).hour, 2);
  assert.equal(paris(Date.parse("2026-10-25T01:30:00Z")).hour, 2);
  assert.equal(paris(Date.parse("2026-10-25T01:30:00Z")).minuteOfDay, 150);
  // A day before: CEST, 06:59Z is 08:59 local.
  assert.equal(paris(Date.parse("2026-10-24T06:59:00Z")).minuteOfDay, 8 * 60 + 59);
});

test("half-hour zones land in the right local hour inside one 15-minute slot cache", () => {
  const kolkata = createLocalClock("Asia/Kolkata");
  assert.equal(kolkata(Date.parse("2026-05-25T02:29:00Z")).hour, 7);
  assert.equal(kolkata(Date.parse("2026-05-25T02:30:00Z")).hour, 8);
  assert.equal(kolkata(Date.parse("2026-05-25T02:44:59Z")).minuteOfDay, 8 * 60 + 14);
});

test("the daytime window is applied in local time, start inclusive, end exclusive", () => {
  const agg = new UsageAggregator({ rule: { kind: "email-pivot", pivot: "o" }, timeZone: "America/New_York", window: parseWindow("08:00-22:00") });
  const row = (iso: string) => ({ timestamp: Date.parse(iso), account: "pat@x", inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0 });
  agg.add(row("2026-07-01T12:00:00Z")); // 08:00 EDT: in
  agg.add(row("2026-07-01T11:59:00Z")); // 07:59 EDT: out
  agg.add(row("2026-07-02T02:00:00Z")); // 22:00 EDT: out
  agg.add(row("2026-12-01T13:00:00Z")); // 08:00 EST: in
  agg.add(row("2026-12-01T12:30:00Z")); // 07:30 EST: out
  assert.equal(agg.counts.used, 2);
  assert.equal(agg.counts.outsideWindow, 3);
  const hours = [...agg.accounts.get("pat@x")!.post.keys()].map((k) => k % 24);
  assert.deepEqual(hours, [8, 8]);
  assert.throws(() => parseWindow("22:00-08:00"), /start must come before its end/);
  assert.throws(() => parseWindow("8-22"), /HH:MM-HH:MM/);
});
