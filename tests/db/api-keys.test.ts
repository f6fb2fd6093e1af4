import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createDb, type Db } from "../../server/db/client";
import { authenticateKey } from "../../server/ingest/keys/authenticate-key";
import { createKey } from "../../server/ingest/keys/create-key";
import { hashKey } from "../../server/ingest/keys/hash-key";
import { listKeys } from "../../server/ingest/keys/list-keys";
import { revokeKey } from "../../server/ingest/keys/revoke-key";
import { isKeyText } from "../../lib/ingest/keys/api-key";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

const MINUTE = new Date("2026-11-26T10:00:30.000Z");

for (const engine of ENGINES) {
  describe(`API keys on ${engine}`, () => {
    let t: TestDb;
    let second: Db;
    before(async () => {
      t = await createTestDb(engine);
      // A second client on the same database stands for a second studio process.
      second = createDb(t.url);
    });
    after(async () => {
      await second.$disconnect();
      await t.close();
    });

    test("a created key is returned once; the database keeps only its hash and first characters", async () => {
      const created = await createKey(t.db, { name: "ci uploader", scope: "ingest" });
      assert.ok(isKeyText(created.key), created.key);
      const row = await t.db.apiKey.findUniqueOrThrow({ where: { id: created.id } });
      assert.equal(row.keyHash, hashKey(created.key));
      assert.equal(row.prefix, created.key.slice(0, 10));
      assert.ok(!JSON.stringify(row).includes(created.key.slice(10)), "no more of the key than its prefix is stored");
      const listed = (await listKeys(t.db)).find((k) => k.id === created.id)!;
      assert.deepEqual(Object.keys(listed).sort(), ["createdAt", "id", "lastUsedAt", "name", "prefix", "revokedAt", "scope"]);
    });

    test("a key authenticates with its scope and records its last use; an unknown key does not", async () => {
      const created = await createKey(t.db, { name: "reader", scope: "read" });
      const auth = await authenticateKey(t.db, created.key, { now: MINUTE });
      assert.deepEqual(auth, { ok: true, key: { id: created.id, name: "reader", scope: "read", createdById: null } });
      assert.equal((await t.db.apiKey.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt?.toISOString(), MINUTE.toISOString());
      const unknown = await authenticateKey(t.db, `tfk_${"A".repeat(43)}`, { now: MINUTE });
      assert.equal(unknown.ok ? "ok" : unknown.code, "invalid_key");
    });

    test("a revoked key is refused like an unknown one, and revoking twice keeps the first time", async () => {
      const created = await createKey(t.db, { name: "to revoke", scope: "ingest" });
      const first = await revokeKey(t.db, created.id, new Date("2026-11-26T11:00:00.000Z"));
      const again = await revokeKey(t.db, created.id, new Date("2026-11-26T12:00:00.000Z"));
      assert.equal(again!.revokedAt, first!.revokedAt);
      const auth = await authenticateKey(t.db, created.key, { now: MINUTE });
      assert.deepEqual(auth, { ok: false, code: "invalid_key", message: "the API key is unknown or revoked" });
      assert.equal(await revokeKey(t.db, "no-such-key"), null);
    });

    test("the rate limit is shared by every process: the limit+1-th request in a minute is refused, the next minute is fresh", async () => {
      const created = await createKey(t.db, { name: "limited", scope: "ingest" });
      const clients = [t.db, second];
      // Concurrent requests from two processes: exactly `limit` pass.
      const answers = await Promise.all(Array.from({ length: 7 }, (_, i) => authenticateKey(clients[i % 2]!, created.key, { limit: 5, now: MINUTE })));
      assert.equal(answers.filter((a) => a.ok).length, 5);
      const refused = answers.find((a) => !a.ok)!;
      assert.ok(!refused.ok && refused.code === "rate_limited" && refused.retryAfterSeconds === 30, JSON.stringify(refused));
      const nextMinute = await authenticateKey(second, created.key, { limit: 5, now: new Date(MINUTE.getTime() + 60_000) });
      assert.equal(nextMinute.ok, true);
      // Old windows are dropped when a new one starts.
      assert.equal(await t.db.apiKeyUsage.count({ where: { keyId: created.id } }), 1);
    });
  });
}
