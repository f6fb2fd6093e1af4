import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const BIN = resolve(__dirname, "../../cli/bin.mjs");
const AIDER = join(TRACES_DIR, "aider_chat_md/AlexShchuka__mozgoslav/.aider.chat.history.md");
const CLAUDE = join(TRACES_DIR, "claude_code_jsonl/DRMacIver__claude-reliability/snapshot-tests/tests/hello-world-script/transcript.jsonl");

for (const engine of ENGINES) {
  describe(`tracefold retention (CLI, ${engine})`, () => {
    let t: TestDb;
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BIN, "retention", ...args], {
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: t.url, TRACEFOLD_DATA_DIR: t.dataDir, TRACEFOLD_STORAGE: "local" },
      });
    before(async () => {
      t = await createTestDb(engine);
    });
    after(() => t.close());

    test("--dry-run lists the uploads older than the age and deletes nothing; the real run deletes exactly those", async () => {
      const old = await importTraceFile({ db: t.db, store: t.store, path: AIDER });
      const recent = await importTraceFile({ db: t.db, store: t.store, path: CLAUDE });
      assert.ok(old.status === "imported" && recent.status === "imported");
      await t.db.upload.update({ where: { id: old.uploadId }, data: { createdAt: new Date(Date.now() - 40 * 86_400_000) } });

      const dry = run(["--older-than", "30d", "--dry-run", "--json"]);
      assert.equal(dry.status, 0, dry.stderr);
      const listed = JSON.parse(dry.stdout) as { dryRun: boolean; uploads: { uploadId: string; sessions: number }[] };
      assert.deepEqual(
        listed.uploads.map((u) => [u.uploadId, u.sessions]),
        [[old.uploadId, old.sessions.length]],
      );
      assert.equal(await t.db.upload.count(), 2);

      const real = run(["--older-than", "30d", "--json"]);
      assert.equal(real.status, 0, real.stderr);
      const done = JSON.parse(real.stdout) as { deleted: { uploadId: string }[]; refused: unknown[] };
      assert.deepEqual(
        done.deleted.map((d) => d.uploadId),
        [old.uploadId],
      );
      assert.deepEqual(
        (await t.db.upload.findMany({ select: { id: true } })).map((u) => u.id),
        [recent.uploadId],
      );
      assert.equal(await t.db.traceSession.count({ where: { uploadId: old.uploadId } }), 0);
    });

    test("a missing or malformed age is a usage error (exit 2)", () => {
      assert.equal(run([]).status, 2);
      const bad = run(["--older-than", "a month"]);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--older-than must be an age like 30d, 12h or 90m/);
    });
  });
}
