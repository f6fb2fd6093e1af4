import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { utimesSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { PutResult } from "../../server/storage/blob-store";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const BIN = resolve(__dirname, "../../cli/bin.mjs");
const TRACE = join(TRACES_DIR, "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/hello-world-script/transcript.jsonl");
const MINUTE = 60_000;

/** `tracefold storage …` as a person runs it: the workspace comes from DATABASE_URL and TRACEFOLD_DATA_DIR. */
function tracefold(args: string[], workspace: { url: string; dataDir: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: workspace.url, TRACEFOLD_DATA_DIR: workspace.dataDir };
  for (const key of Object.keys(env)) if (key.startsWith("TRACEFOLD_") && key !== "TRACEFOLD_DATA_DIR") delete env[key];
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

for (const engine of ENGINES) {
  describe(`tracefold storage sweep (CLI, ${engine} + local disk)`, () => {
    let t: TestDb;
    let workspace: { url: string; dataDir: string };
    let uploadKey = "";
    let twoHours: PutResult;
    let twentyMinutes: PutResult;
    const age = (key: string, ms: number) => utimesSync(join(workspace.dataDir, key), new Date(Date.now() - ms), new Date(Date.now() - ms));
    before(async () => {
      t = await createTestDb(engine);
      workspace = { url: t.url, dataDir: join(t.dataDir, "blobs") };
      const imported = await importTraceFile({ db: t.db, store: t.store, path: TRACE });
      assert.equal(imported.status, "imported");
      if (imported.status !== "imported") return;
      uploadKey = (await t.db.upload.findUniqueOrThrow({ where: { id: imported.uploadId } })).storageKey;
      age(uploadKey, 3 * 60 * MINUTE);
      twoHours = await t.store.putBytes(Buffer.from("orphan, two hours old"), "uploads");
      age(twoHours.key, 120 * MINUTE);
      twentyMinutes = await t.store.putBytes(Buffer.from("orphan, twenty minutes old"), "sidecars");
      age(twentyMinutes.key, 20 * MINUTE);
    });
    after(async () => {
      await t.close();
    });

    test("--dry-run --json reports the counts and removes nothing", async () => {
      const run = tracefold(["storage", "sweep", "--dry-run", "--json"], workspace);
      assert.equal(run.code, 0, run.stderr);
      const result = JSON.parse(run.stdout) as Record<string, unknown>;
      assert.deepEqual(result, {
        dryRun: true,
        graceMs: 60 * MINUTE,
        scanned: 3,
        referenced: 1,
        keptYoung: 1,
        removed: 1,
        vanished: 0,
        bytesFreed: 21,
        removedKeys: [twoHours.key],
      });
      assert.equal(await t.store.exists(twoHours.key), true);
    });

    test("--grace-minutes 10 removes both orphans and keeps the referenced upload", async () => {
      const run = tracefold(["storage", "sweep", "--grace-minutes", "10", "--json"], workspace);
      assert.equal(run.code, 0, run.stderr);
      const result = JSON.parse(run.stdout) as { removed: number; bytesFreed: number; removedKeys: string[] };
      assert.equal(result.removed, 2);
      assert.equal(result.bytesFreed, 21 + 26);
      assert.deepEqual(result.removedKeys.sort(), [twentyMinutes.key, twoHours.key].sort());
      assert.equal(await t.store.exists(twoHours.key), false);
      assert.equal(await t.store.exists(twentyMinutes.key), false);
      assert.equal(await t.store.exists(uploadKey), true);
      const human = tracefold(["storage", "sweep"], workspace);
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stdout, /^storage sweep: 1 blobs scanned, 1 referenced, 0 younger than 60 minutes kept, removed 0 \(0\.0 MiB\)/);
    });

    test("a bad command line is a usage error (exit 2)", () => {
      const noSub = tracefold(["storage"], workspace);
      assert.equal(noSub.code, 2);
      assert.match(noSub.stderr, /storage takes one subcommand: sweep/);
      const badGrace = tracefold(["storage", "sweep", "--grace-minutes", "soon"], workspace);
      assert.equal(badGrace.code, 2);
      assert.match(badGrace.stderr, /--grace-minutes must be a number of minutes/);
    });
  });
}
