import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { authenticateKey } from "../../server/ingest/keys/authenticate-key";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

const BIN = resolve(__dirname, "../../cli/bin.mjs");

/** `tracefold keys …` on the server machine: the database comes from DATABASE_URL. */
function tracefold(args: string[], url: string) {
  const run = spawnSync(process.execPath, [BIN, "keys", ...args], { encoding: "utf8", env: { ...process.env, DATABASE_URL: url } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

for (const engine of ENGINES) {
  describe(`tracefold keys (CLI, ${engine})`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
    });
    after(() => t.close());

    test("create prints the key once as {id,name,scope,key}; list never shows it; revoke makes it refused", async () => {
      const created = tracefold(["create", "--name", "ci", "--scope", "ingest", "--json"], t.url);
      assert.equal(created.code, 0, created.stderr);
      const key = JSON.parse(created.stdout) as { id: string; name: string; scope: string; key: string };
      assert.deepEqual(Object.keys(key), ["id", "name", "scope", "key"]);
      assert.deepEqual([key.name, key.scope], ["ci", "ingest"]);
      assert.equal((await authenticateKey(t.db, key.key)).ok, true);

      const listed = tracefold(["list", "--json"], t.url);
      assert.equal(listed.code, 0, listed.stderr);
      assert.ok(!listed.stdout.includes(key.key.slice(10)), "list shows only the key's first characters");
      assert.equal((JSON.parse(listed.stdout) as { id: string; lastUsedAt: string | null }[]).find((k) => k.id === key.id)?.lastUsedAt !== null, true);

      const revoked = tracefold(["revoke", key.id], t.url);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.match(revoked.stdout, /^revoked /);
      assert.equal((await authenticateKey(t.db, key.key)).ok, false);
    });

    test("bad command lines are usage errors (exit 2); an unknown id is exit 1", () => {
      const badScope = tracefold(["create", "--name", "x", "--scope", "write"], t.url);
      assert.equal(badScope.code, 2);
      assert.match(badScope.stderr, /--scope: scope must be ingest or read/);
      assert.equal(tracefold(["create", "--scope", "read"], t.url).code, 2);
      assert.equal(tracefold(["rotate"], t.url).code, 2);
      const unknown = tracefold(["revoke", "no-such-key"], t.url);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no key with id "no-such-key"/);
    });
  });
}
