import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { readSidecar } from "../../server/compaction/read-sidecar";
import { runSessionPolicy } from "../../server/compaction/run-session-policy";
import type { BlobStore } from "../../server/storage/blob-store";
import { s3BlobStore } from "../../server/storage/s3-blob-store";
import { s3Request } from "../../server/storage/s3-request";
import { receiveUpload } from "../../server/trace/import/receive-upload";
import { startTestS3, type TestS3 } from "../helpers/s3-server";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

const TRACE = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"); // cut 211: before the response at line 1084 (293 messages, 408 records)
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

for (const engine of ENGINES) {
  describe(`S3 storage end to end on ${engine}`, () => {
    let t: TestDb;
    let s3: TestS3;
    let store: BlobStore;
    let sessionId = "";
    before(async () => {
      [t, s3] = await Promise.all([createTestDb(engine), startTestS3()]);
      store = s3BlobStore(s3.settings);
    });
    after(async () => {
      await Promise.all([t.close(), s3.close()]);
    });

    const upload = (bytes: Uint8Array, fileName: string) =>
      receiveUpload({ db: t.db, store, body: new Blob([new Uint8Array(bytes)]).stream(), fileName, userId: "", maxBytes: 64 << 20 });

    test("an uploaded trace is imported and its bytes are kept in the bucket, once", async () => {
      const bytes = readFileSync(TRACE);
      const outcome = await upload(bytes, "session.jsonl");
      assert.equal(outcome.status, "imported");
      if (outcome.status !== "imported") return;
      sessionId = outcome.sessions[0]!.id;
      const row = await t.db.upload.findUniqueOrThrow({ where: { id: outcome.uploadId } });
      assert.equal(row.storageKey, `uploads/${row.sha256.slice(0, 2)}/${row.sha256}`);
      const stored = await store.readBytes(row.storageKey);
      assert.equal(sha(stored), row.sha256, "the object holds the bytes the row names");
      assert.equal(stored.length, row.bytes);
      const again = await upload(bytes, "again.jsonl");
      assert.equal(again.status, "duplicate");
      assert.equal(await t.db.upload.count(), 1);
    });

    test("a refused file leaves no object behind", async () => {
      const bad = Buffer.from('{"type":"user","message":{"role":"user","content":"x"}}\nnot json at all\n');
      const outcome = await upload(bad, "bad.jsonl");
      assert.equal(outcome.status, "failed");
      assert.equal(await store.exists(`uploads/${sha(bad).slice(0, 2)}/${sha(bad)}`), false);
    });

    test("a folded object's sidecar goes to the bucket and restores byte for byte", async () => {
      const run = await runSessionPolicy(t.db, store, { sessionId, policyId: "oldest-turn", cut: 211 });
      assert.ok(run.ok);
      if (!run.ok) return;
      assert.ok(run.result.sidecars.length > 0, "oldest-turn folds something at cut 211");
      for (const sidecar of run.result.sidecars) {
        const restored = await readSidecar(t.db, store, sidecar.sha256);
        assert.ok(restored);
        assert.equal(restored.bytes.toString("utf8"), sidecar.payload);
      }
    });

    test("a sidecar whose object was replaced in the bucket is refused, not served", async () => {
      const row = await t.db.sidecar.findFirstOrThrow();
      const forged = Buffer.from("not the folded payload");
      const put = await s3Request(s3.settings, { method: "PUT", key: row.storageKey, payloadSha256: sha(forged), contentLength: forged.length, body: forged });
      put.body.resume();
      assert.equal(put.status, 200);
      await assert.rejects(readSidecar(t.db, store, row.sha256), /corrupted/);
    });
  });
}
