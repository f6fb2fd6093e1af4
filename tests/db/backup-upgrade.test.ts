import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import { backupWorkspace } from "../../server/backup/backup-workspace";
import { BASELINE_MIGRATION, MIGRATION_VERDICTS, type MigrationVerdict } from "../../server/backup/migration-verdicts";
import { delegateOf } from "../../server/backup/model-delegate";
import { restoreWorkspace } from "../../server/backup/restore-workspace";
import { readSchemaModels } from "../../server/backup/schema-models";
import { ArchiveError } from "../../server/backup/tar-reader";
import { runSessionPolicy } from "../../server/compaction/run-session-policy";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { laterTableEntries, repack, TABLES_AFTER_BASELINE, withoutLaterTables } from "../helpers/backup-archive";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const TRACE = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"); // cut 211: before the response at line 1084 (293 messages, 408 records)
const MODELS = readSchemaModels();
const LOCAL = readdirSync(resolve("prisma/migrations/sqlite")).sort();
/** What a backup made by the first release with backups (before 0010 and later) lists. */
const AT_BASELINE = LOCAL.slice(0, LOCAL.indexOf(BASELINE_MIGRATION) + 1);

/** A workspace as the 0009 release could hold it: users, an imported trace (an upload blob), a sidecar, an evaluation run with a result, review items with a label. */
async function seedWorkspace(t: TestDb): Promise<string> {
  const admin = await t.db.user.create({ data: { email: "admin@upgrade.test", name: "Admin", passwordHash: "x", role: "admin" } });
  const imported = await importTraceFile({ db: t.db, store: t.store, path: TRACE, userId: admin.id });
  assert.equal(imported.status, "imported");
  const sessionId = imported.status === "imported" ? imported.sessions[0]!.id : "";
  const fold = await runSessionPolicy(t.db, t.store, { sessionId, policyId: "oldest-turn", cut: 211 });
  assert.ok(fold.ok && fold.result.sidecars.length > 0, "a sidecar to back up");
  const run = await t.db.evalRun.create({ data: { name: "run", settings: '{"policies":["none"]}', status: "done", total: 0, done: 0, createdById: admin.id } });
  await t.db.evalResult.create({
    data: {
      runId: run.id,
      unitKey: `${sessionId}#300#none`,
      sessionId,
      cut: 300,
      cutReason: "share-50",
      policy: "none",
      prefixTokens: 1000,
      tokensAfter: 1000,
      noImpact: true,
    },
  });
  const queue = await t.db.reviewQueue.create({ data: { name: "q", kind: "failure", runId: run.id, overlap: 1, blind: true, sampleSize: 2, sampledFrom: 5 } });
  await t.db.reviewItem.createMany({ data: [0, 1].map((i) => ({ queueId: queue.id, itemKey: `k${i}`, position: i, sessionId, cut: 100 + i, payload: "{}" })) });
  await t.db.reviewLabelRow.create({
    data: {
      queueId: queue.id,
      itemKey: "k0",
      labelId: "l1",
      version: 1,
      kind: "dependency",
      reviewerId: admin.id,
      reviewer: "Admin",
      body: '{"verdict":"yes"}',
      createdAt: new Date(),
    },
  });
  return sessionId;
}

async function dumpTables(t: TestDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const model of MODELS)
    out[model.name] = await delegateOf(t.db, model).findMany({ orderBy: model.idFields.map((f) => ({ [f]: "asc" as const })), take: 100_000 });
  return out;
}

async function blobsOf(t: TestDb): Promise<Record<string, string>> {
  const keys = [...(await t.db.upload.findMany()).map((u) => u.storageKey), ...(await t.db.sidecar.findMany()).map((s) => s.storageKey)].sort();
  const out: Record<string, string> = {};
  for (const key of keys) out[key] = (await t.store.readBytes(key)).toString("base64");
  return out;
}

async function isEmpty(t: TestDb, blobKeys: string[]): Promise<boolean> {
  for (const model of MODELS) if ((await delegateOf(t.db, model).count()) > 0) return false;
  for (const key of blobKeys) if (await t.store.exists(key)) return false;
  return true;
}

/** The columns 0013_eval_budgets added to EvalResult: rows archived before it have none of them. */
const EVAL_RESULT_0013 = ["budget", "targetTokens", "netPruneRate", "restores", "restoreTokens", "visibleNoImpact", "restorableNoImpact", "byKind"];
/** ReviewQueue columns added by 0014 (a 0009 archive has none of them: every pair, no sample, not blind). */
const QUEUE_OPTIONS = { policyA: null, policyB: null, cuts: null, sampleSize: null, sampledFrom: null, blind: false } as const;

/** Columns 0015_calibration_queues added (archived queues were built from runs: no gold file, no unit). */
const CALIBRATION_0015 = { queue: ["sourceSha256"], item: ["unit"] } as const;

/**
 * The real backup rewritten as the 0009 release wrote it: no later migration in the manifest, no
 * CompactionJob table, no `records` column on messages (0012: every message was one record then),
 * no 0013 columns on evaluation results, no queue options on review queues (0014), no calibration
 * columns on review queues and items (0015).
 */
function asBaselineArchive(tar: Buffer, extra: { migrations?: string[]; rewrite?: Record<string, (body: Buffer) => Buffer> } = {}): Buffer {
  return repack(tar, {
    drop: laterTableEntries(),
    rewrite: {
      "tables/TraceMessage.jsonl": withoutField("records"),
      "tables/EvalResult.jsonl": withoutField(...EVAL_RESULT_0013),
      "tables/ReviewQueue.jsonl": withoutField(...Object.keys(QUEUE_OPTIONS), ...CALIBRATION_0015.queue),
      "tables/ReviewItem.jsonl": withoutField(...CALIBRATION_0015.item),
      ...extra.rewrite,
    },
    edit: (m) => {
      m.migrations = extra.migrations ?? AT_BASELINE;
      withoutLaterTables(m);
    },
  });
}

/** The source's tables as a 0009 archive of them restores: messages without their merged records. */
async function dumpAsBaseline(t: TestDb): Promise<Record<string, unknown[]>> {
  const tables = await dumpTables(t);
  return {
    ...tables,
    TraceMessage: tables.TraceMessage!.map((row) => ({ ...(row as object), records: null })),
    ReviewQueue: tables.ReviewQueue!.map((row) => ({ ...(row as object), ...QUEUE_OPTIONS })),
  };
}

/** Each JSON line of a table entry without `fields`. */
const withoutField =
  (...fields: string[]) =>
  (body: Buffer) =>
    Buffer.from(
      body
        .toString("utf8")
        .split("\n")
        .map((line) => {
          if (!line) return line;
          const row = JSON.parse(line);
          for (const field of fields) delete row[field];
          return JSON.stringify(row);
        })
        .join("\n"),
    );

for (const engine of ENGINES) {
  describe(`restoring an archive from an earlier version on ${engine}`, () => {
    let source: TestDb;
    let scratch: string;
    let tar: Buffer;
    let blobKeys: string[];
    let sessionId: string;
    before(async () => {
      source = await createTestDb(engine);
      scratch = mkdtempSync(join(tmpdir(), "tracefold-upgrade-"));
      sessionId = await seedWorkspace(source);
      blobKeys = Object.keys(await blobsOf(source));
      const archive = join(scratch, "current.tar.gz");
      await backupWorkspace({ db: source.db, engine, store: source.store, out: archive, scratchDir: scratch });
      tar = gunzipSync(readFileSync(archive));
    });
    after(async () => {
      await source.close();
      rmSync(scratch, { recursive: true, force: true });
    });

    /** `archive` restored into a fresh workspace, handed to `check`, then dropped. */
    async function intoFresh(
      name: string,
      archive: Buffer,
      check: (target: TestDb, restore: () => ReturnType<typeof restoreWorkspace>) => Promise<void>,
      verdicts?: MigrationVerdict[],
    ) {
      const target = await createTestDb(engine);
      try {
        const file = join(scratch, `${name}.tar`);
        writeFileSync(file, archive);
        await check(target, () => restoreWorkspace({ db: target.db, engine, store: target.store, file, scratchDir: scratch, verdicts }));
      } finally {
        await target.close();
      }
    }

    test("an archive at 0009 without the later tables (CompactionJob, ApiKey…) restores with every row and blob, the new tables empty and usable", async () => {
      await intoFresh("baseline", asBaselineArchive(tar), async (target, restore) => {
        const summary = await restore();
        assert.deepEqual(summary.upgradedThrough, LOCAL.slice(AT_BASELINE.length));
        assert.ok(summary.upgradedThrough.includes("0013_eval_budgets"));
        assert.ok(TABLES_AFTER_BASELINE.includes("CompactionJob"));
        assert.deepEqual([...summary.emptyTables].sort(), [...TABLES_AFTER_BASELINE].sort());
        assert.ok(!summary.tables.some((t) => TABLES_AFTER_BASELINE.includes(t.model)));
        assert.equal(summary.blobsWritten, blobKeys.length);
        assert.deepEqual(await dumpTables(target), await dumpAsBaseline(source));
        assert.ok((await target.db.traceMessage.count()) > 100, "the trace's messages are back");
        const result = await target.db.evalResult.findFirstOrThrow();
        assert.deepEqual(
          [result.noImpact, result.budget, result.netPruneRate, result.visibleNoImpact, result.byKind],
          [true, null, null, null, null],
          "an archived result reads as a unit at its own settings without the new figures",
        );
        assert.deepEqual(await blobsOf(target), await blobsOf(source));
        const job = await target.db.compactionJob.create({ data: { sessionId, policy: "self-gc" } });
        assert.equal(job.status, "queued");
      });
    });

    test("a column an additive migration adds may be missing from archived rows when nullable; undeclared, it is refused naming table, column and line", async () => {
      const archive = asBaselineArchive(tar, { rewrite: { "tables/ReviewItem.jsonl": withoutField("assignees") } });
      const addsAssignees: MigrationVerdict[] = [
        { ...MIGRATION_VERDICTS[0]!, restore: "additive", columns: ["ReviewItem.assignees"] },
        ...MIGRATION_VERDICTS.slice(1),
      ];
      await intoFresh(
        "no-assignees",
        archive,
        async (target, restore) => {
          await restore();
          const items = await target.db.reviewItem.findMany({ orderBy: { position: "asc" } });
          assert.deepEqual(
            items.map((i) => [i.itemKey, i.assignees]),
            [
              ["k0", null],
              ["k1", null],
            ],
          );
          assert.deepEqual(await dumpTables(target), await dumpAsBaseline(source));
        },
        addsAssignees,
      );
      await intoFresh("no-assignees-undeclared", archive, async (target, restore) => {
        await assert.rejects(
          restore(),
          (e: unknown) => e instanceof ArchiveError && e.message === "tables/ReviewItem.jsonl line 1: column ReviewItem.assignees is missing",
        );
        assert.ok(await isEmpty(target, blobKeys), "no row or blob written");
      });
    });

    test("an archive missing a migration that is not additive, or one adding a required column, is refused and writes nothing", async () => {
      const breaking: MigrationVerdict[] = [
        MIGRATION_VERDICTS[0]!,
        { name: "0011_compaction_jobs", restore: "breaks-older-archives", reason: "as if it rewrote rows" },
        ...MIGRATION_VERDICTS.slice(2),
      ];
      const workspace = `${LOCAL.at(-1)} \\(${LOCAL.length}\\)`;
      await intoFresh(
        "breaking",
        asBaselineArchive(tar),
        async (target, restore) => {
          const expected = new RegExp(
            `^the archive is at schema version 0009_suite_filters \\(9 migrations\\), this workspace at ${workspace}: the archive lacks migration 0011_compaction_jobs, which changes existing rows \\(as if it rewrote rows\\); restore with the Tracefold version that made the backup, then upgrade$`,
          );
          await assert.rejects(restore(), (e: unknown) => e instanceof ArchiveError && expected.test(e.message));
          assert.ok(await isEmpty(target, blobKeys), "no row or blob written");
        },
        breaking,
      );
      const requiredCut: MigrationVerdict[] = [{ ...MIGRATION_VERDICTS[0]!, restore: "additive", columns: ["ReviewItem.cut"] }, ...MIGRATION_VERDICTS.slice(1)];
      await intoFresh(
        "required-column",
        asBaselineArchive(tar, { rewrite: { "tables/ReviewItem.jsonl": withoutField("cut") } }),
        async (target, restore) => {
          await assert.rejects(
            restore(),
            (e: unknown) => e instanceof ArchiveError && /column ReviewItem\.cut, added by 0010_label_recency, is required and has no default/.test(e.message),
          );
          assert.ok(await isEmpty(target, blobKeys), "no row or blob written");
        },
        requiredCut,
      );
    });

    test("an archive with a migration this version does not know (newer, or another branch) is refused and writes nothing", async () => {
      const newer = repack(tar, { edit: (m) => (m.migrations = [...LOCAL, "0012_from_the_future"]) });
      await intoFresh("newer", newer, async (target, restore) => {
        await assert.rejects(
          restore(),
          (e: unknown) =>
            e instanceof ArchiveError &&
            /: the archive has migration 0012_from_the_future, which this Tracefold version does not know \(the backup was made by a newer or different version\); restore it with that version$/.test(
              e.message,
            ),
        );
        assert.ok(await isEmpty(target, blobKeys), "no row or blob written");
      });
      await intoFresh("foreign", asBaselineArchive(tar, { migrations: [...AT_BASELINE, "0010_other_branch"] }), async (target, restore) => {
        await assert.rejects(
          restore(),
          (e: unknown) =>
            e instanceof ArchiveError && /the archive has migration 0010_other_branch, which this Tracefold version does not know/.test(e.message),
        );
        assert.ok(await isEmpty(target, blobKeys), "no row or blob written");
      });
    });
  });
}
