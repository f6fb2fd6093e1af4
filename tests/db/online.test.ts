import assert from "node:assert/strict";
import { createReadStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { toOnlineContract } from "../../cli/online/output";
import { UsageAggregator, type AggregateOptions } from "../../lib/online/assignment/aggregate";
import { estimateOnline } from "../../lib/online/estimation/estimate";
import { generateUsageLogs } from "../../lib/online/simulation/generate-logs";
import { parseWindow } from "../../lib/online/assignment/local-time";
import { readUsageRows } from "../../lib/online/usage/read-usage";
import type { UsageRow } from "../../lib/online/usage/schema";
import { importUsageLog } from "../../server/online/import-usage-log";
import { getOnlineReport } from "../../server/online/online-report";
import { sha256OfFile } from "../../server/storage/blob-store";
import { OnlineQuerySchema } from "../../server/online/report-query";
import { runOnlineCli, writeUsageCsv } from "../helpers/online-cli";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

/** Three days, 150 accounts, a true 12% reduction: small enough for both engines, big enough for a curve. */
const ROWS: UsageRow[] = [...generateUsageLogs({ seed: 7, accounts: 150, days: 3, start: "2026-05-25", trueReductionPct: 12, preDays: 1 })];

/** The report lib/online computes straight from the file's rows (what the CLI does). */
async function directReport(path: string, options: AggregateOptions) {
  return directReportWith(path, options, 2_000);
}

async function directReportWith(path: string, options: AggregateOptions, iterations: number) {
  const aggregator = new UsageAggregator(options);
  for await (const item of readUsageRows(createReadStream(path, { encoding: "utf8" }), { format: "csv" })) if (item.ok) aggregator.add(item.row);
  return estimateOnline(aggregator, { seed: 1, iterations });
}

const query = (params: Record<string, string | string[]>) => OnlineQuerySchema.parse(params);
const BY_COLUMN = { kind: "column", column: "group" } as const;

/** Accounts split by a salted hash in the group column, all named at or after "o" (the e-mail pivot would put every one in treatment). */
const LABELLED: UsageRow[] = [
  ...generateUsageLogs({ seed: 8, accounts: 80, days: 1, start: "2026-05-25", trueReductionPct: 12, rule: { kind: "hash", salt: "arm" } }),
].map((r) => ({ ...r, account: `u-${r.account}` }));

for (const engine of ENGINES) {
  describe(`online usage logs on ${engine}`, () => {
    let t: TestDb;
    let file: string;
    let logId: string;
    before(async () => {
      t = await createTestDb(engine);
      file = join(t.dataDir, "week.csv");
      writeUsageCsv(file, ROWS);
    });
    after(async () => {
      await t.close();
    });

    test("an upload is stored as slot sums, far fewer than rows, with the raw bytes kept", async () => {
      const outcome = await importUsageLog({ db: t.db, store: t.store, path: file });
      assert.equal(outcome.status, "imported");
      if (outcome.status !== "imported") return;
      logId = outcome.logId;
      assert.equal(outcome.rows, ROWS.length);
      const slots = await t.db.usageSlot.aggregate({ where: { logId }, _sum: { calls: true, input: true }, _count: true });
      assert.equal(slots._sum.calls, ROWS.length);
      assert.equal(
        slots._sum.input,
        ROWS.reduce((a, r) => a + r.inputTokens, 0),
      );
      assert.ok(slots._count < ROWS.length, `${slots._count} slots for ${ROWS.length} rows`);
      const log = await t.db.usageLog.findUniqueOrThrow({ where: { id: logId } });
      assert.ok(await t.store.exists(log.storageKey));
      assert.equal(JSON.parse(log.mapping).inputTokens, "inputTokens");
    });

    test("the studio report equals lib/online's report on the same file, and the CLI's JSON", async () => {
      const studio = await getOnlineReport(t.db, logId, query({}));
      // The log has a group column, so both open with it.
      assert.equal(studio?.assign, "column:group");
      const direct = await directReport(file, { rule: BY_COLUMN, timeZone: "UTC" });
      assert.ok(studio?.report);
      assert.deepEqual(studio.report, direct);
      const cli = runOnlineCli(file, "--json");
      assert.equal(cli.code, 0, cli.stderr);
      assert.deepEqual(JSON.parse(cli.stdout), toOnlineContract(studio.report));
    });

    test("switching the time zone regroups the stored slots exactly as re-reading the rows would", async () => {
      for (const tz of ["Asia/Kolkata", "Asia/Kathmandu", "America/New_York"]) {
        const studio = await getOnlineReport(t.db, logId, query({ tz, window: "09:15-18:45" }));
        const direct = await directReport(file, { rule: BY_COLUMN, timeZone: tz, window: parseWindow("09:15-18:45") });
        assert.deepEqual(studio?.report, direct, tz);
      }
      const utc = await getOnlineReport(t.db, logId, query({}));
      const kolkata = await getOnlineReport(t.db, logId, query({ tz: "Asia/Kolkata" }));
      assert.notDeepEqual(
        utc?.report?.hourly.map((h) => h.calls),
        kolkata?.report?.hourly.map((h) => h.calls),
      );
    });

    test("surface filter, volatile window, rollout and prices match lib/online too; the interval covers the true 12%", async () => {
      const params = {
        surface: "context-gc",
        volatile: "2026-05-26T12:00:00Z/2026-05-26T13:30:00Z",
        rollout: "2026-05-26T00:00:00Z",
        prices: "input=2,output=10",
      };
      const studio = await getOnlineReport(t.db, logId, query(params));
      const parsed = query(params);
      const aggregator = new UsageAggregator({
        rule: BY_COLUMN,
        timeZone: "UTC",
        surfaces: ["context-gc"],
        volatile: parsed.volatile,
        rolloutAt: parsed.rollout!,
      });
      for await (const item of readUsageRows(createReadStream(file, { encoding: "utf8" }), { format: "csv" })) if (item.ok) aggregator.add(item.row);
      assert.deepEqual(studio?.report, estimateOnline(aggregator, { seed: 1, iterations: 2_000, prices: parsed.prices }));
      assert.ok(studio?.report?.did, "the pre-rollout day gives a difference-in-differences");
      assert.ok(studio.report.counts.volatile > 0 && studio.report.counts.otherSurface > 0);
      assert.ok(studio.report.ci95[0] < 12 && 12 < studio.report.ci95[1], `12% inside ${studio.report.ci95}`);
    });

    test("the hash rule is applied per account at query time", async () => {
      const studio = await getOnlineReport(t.db, logId, query({ assign: "hash:s1" }));
      assert.deepEqual(studio?.report, await directReport(file, { rule: { kind: "hash", salt: "s1" }, timeZone: "UTC" }));
      assert.equal(studio?.report?.assignment.randomised, true);
    });

    test("controls off the quarter-hour grid are refused with the reason", () => {
      assert.throws(() => query({ window: "08:10-22:00" }), /quarter hours/);
      assert.throws(() => query({ rollout: "2026-05-26T00:05:00Z" }), /quarter hour/);
      assert.throws(() => query({ tz: "Mars/Olympus" }), /unknown time zone/);
    });

    test("the same bytes uploaded again are recognised", async () => {
      const again = await importUsageLog({ db: t.db, store: t.store, path: file, fileName: "again.csv" });
      assert.deepEqual(again, { status: "duplicate", logId, fileName: "week.csv" });
      assert.equal(await t.db.usageLog.count(), 1);
    });

    test("a malformed file leaves nothing: no log, no slot, no blob", async () => {
      const bad = join(t.dataDir, "bad.csv");
      const lines = ROWS.slice(0, 200).map((r, i) => `${i % 10 === 0 ? "yesterday" : new Date(r.timestamp).toISOString()},${r.account},${r.inputTokens}`);
      writeFileSync(bad, ["timestamp,account,inputTokens", ...lines].join("\n"));
      const outcome = await importUsageLog({ db: t.db, store: t.store, path: bad });
      assert.equal(outcome.status, "failed");
      if (outcome.status !== "failed") return;
      assert.equal(outcome.errorCount, 20);
      assert.equal(outcome.errors[0]!.line, 2);
      assert.equal(outcome.errors[0]!.column, "timestamp");
      const sha = await sha256OfFile(bad);
      assert.equal(await t.store.exists(`uploads/${sha.slice(0, 2)}/${sha}`), false, "the refused bytes are not kept");
      const late = join(t.dataDir, "late-errors.csv");
      writeFileSync(
        late,
        [
          "timestamp,account,inputTokens",
          ...ROWS.slice(0, 300).map((r, i) => `${i >= 290 ? "soon" : new Date(r.timestamp).toISOString()},${r.account},${r.inputTokens}`),
        ].join("\n"),
      );
      const rolledBack = await importUsageLog({ db: t.db, store: t.store, path: late, flushSlots: 10 });
      assert.equal(rolledBack.status, "failed", "errors after batches were written still refuse the file");
      const noTime = join(t.dataDir, "no-time.csv");
      writeFileSync(noTime, "when,account,inputTokens\nx,a@b,1\n");
      const unmapped = await importUsageLog({ db: t.db, store: t.store, path: noTime });
      assert.equal(unmapped.status, "failed");
      assert.match(unmapped.status === "failed" ? unmapped.message : "", /no column mapped to timestamp/);
      assert.equal(await t.db.usageLog.count(), 1);
      assert.equal(await t.db.usageSlot.count({ where: { logId: { not: logId } } }), 0);
    });

    test("a log with a group column opens split by it; a rule that empties a group says so instead of a report", async () => {
      const path = join(t.dataDir, "labelled.csv");
      writeUsageCsv(path, LABELLED);
      const outcome = await importUsageLog({ db: t.db, store: t.store, path });
      assert.equal(outcome.status, "imported");
      if (outcome.status !== "imported") return;
      const opened = await getOnlineReport(t.db, outcome.logId, query({}), { iterations: 200 });
      assert.equal(opened?.assign, "column:group");
      assert.equal(opened?.warning, null);
      assert.ok(opened?.report && opened.report.groups.control.accounts > 10 && opened.report.groups.treatment.accounts > 10);
      assert.deepEqual(opened.report, await directReportWith(path, { rule: BY_COLUMN, timeZone: "UTC" }, 200));
      const pivot = await getOnlineReport(t.db, outcome.logId, query({ assign: "email-pivot:o" }), { iterations: 200 });
      assert.equal(pivot?.assign, "email-pivot:o");
      assert.equal(pivot?.report, null);
      assert.match(
        pivot?.warning ?? "",
        /^The control group is empty: all [\d,]+ accounts \([\d,]+ calls\) fell in treatment under account e-mail first character ≥ "o".*assign by it \(column:group\)/,
      );
      const cli = runOnlineCli(path, "--json", "--assign", "email-pivot:o", "--iterations", "50");
      assert.equal(cli.code, 1);
      assert.ok(cli.stderr.includes(`warning: ${pivot!.warning}`), cli.stderr);
    });
  });
}
