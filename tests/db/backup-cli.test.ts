import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { laterTableEntries, repack, TABLES_AFTER_BASELINE, withoutLaterTables } from "../helpers/backup-archive";
import { createTestDb, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const BIN = resolve(__dirname, "../../cli/bin.mjs");
const TRACE = join(TRACES_DIR, "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/hello-world-script/transcript.jsonl");

/** `tracefold backup|restore` as a person runs them: the workspace comes from DATABASE_URL and TRACEFOLD_DATA_DIR. */
function tracefold(args: string[], workspace: { url: string; dataDir: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: workspace.url, TRACEFOLD_DATA_DIR: workspace.dataDir };
  for (const key of Object.keys(env)) if (key.startsWith("TRACEFOLD_") && key !== "TRACEFOLD_DATA_DIR") delete env[key];
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("tracefold backup and restore (CLI, SQLite + local disk)", () => {
  let source: TestDb;
  let scratch: string;
  before(async () => {
    source = await createTestDb("sqlite");
    scratch = mkdtempSync(join(tmpdir(), "tracefold-backup-cli-"));
    assert.equal((await importTraceFile({ db: source.db, store: source.store, path: TRACE })).status, "imported");
  });
  after(async () => {
    await source.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  test("backup, restore into an empty workspace, and a second restore refused without --force", () => {
    const archive = join(scratch, "ws.tar.gz");
    const from = { url: source.url, dataDir: join(source.dataDir, "blobs") };
    const to = { url: `file:${join(scratch, "restored.db")}`, dataDir: join(scratch, "restored-data") };
    const backup = tracefold(["backup", "--out", archive], from);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /^backup .*ws\.tar\.gz: \d+ rows in \d+ tables, 1 blobs/);
    const restore = tracefold(["restore", archive], to);
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, /^restored \d+ rows in \d+ tables and 1 blobs \(1 new to the store\)/);
    const again = tracefold(["restore", archive], to);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /tracefold restore: the workspace is not empty \(Upload: 1, .*pass --force/);
    const usage = tracefold(["restore"], to);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /restore needs exactly one archive/);
  });

  test("an archive from the 0009 release restores and says which additive migrations it predates", () => {
    const archive = join(scratch, "current.tar.gz");
    assert.equal(tracefold(["backup", "--out", archive], { url: source.url, dataDir: join(source.dataDir, "blobs") }).code, 0);
    const old = join(scratch, "from-0009.tar");
    writeFileSync(
      old,
      repack(gunzipSync(readFileSync(archive)), {
        drop: laterTableEntries(),
        edit: (m) => {
          m.migrations = m.migrations.filter((name: string) => name <= "0009_suite_filters");
          withoutLaterTables(m);
        },
      }),
    );
    const restore = tracefold(["restore", old], { url: `file:${join(scratch, "from-0009.db")}`, dataDir: join(scratch, "from-0009-data") });
    assert.equal(restore.code, 0, restore.stderr);
    const later = readdirSync(resolve("prisma/migrations/sqlite"))
      .sort()
      .filter((name) => name > "0009_suite_filters");
    assert.ok(later.length >= 2 && later[0] === "0010_label_recency");
    assert.match(
      restore.stdout,
      new RegExp(
        `^restored \\d+ rows in \\d+ tables and 1 blobs \\(1 new to the store\\), every digest and count checked\\nthe archive predates ${later.join(", ")} \\(additive: existing rows unchanged\\); ${TABLES_AFTER_BASELINE.join(", ")} restored empty\\n$`,
      ),
    );
  });
});
