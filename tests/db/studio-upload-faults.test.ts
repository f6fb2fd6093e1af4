import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { readFile, utimes, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { makeClaudeJsonl } from "../../scripts/bench/make-claude-jsonl";
import { setRedactionSettings } from "../../server/settings/redaction-settings";
import { UPLOAD_TEMP_MAX_AGE_MS } from "../../server/trace/import/sweep-upload-temps";
import type { UploadResponse } from "../../server/trace/import/upload-response";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";
import { startUploadStudio, type UploadStudioProcess } from "../helpers/upload-studio-process";
import { until } from "../helpers/worker-process";
import { writeTransactionOpen } from "../helpers/write-transaction-open";

/**
 * The studio SIGKILLed in the middle of an upload it imports inside the request (issue #7; files
 * under TRACEFOLD_ASYNC_IMPORT_MB never reach a worker). A real child process answers
 * PUT /api/uploads with the route handler's receiveUpload call; the test kills it while the import's
 * transaction is open and proves: no upload row and no half-imported session exist, an upload
 * answered before the kill is fully present, the blobs written before the transaction are reused
 * (not duplicated) when the same bytes are uploaded again after a restart, that upload imports
 * exactly once, a third copy is answered as a duplicate, and the killed request's temp files (the
 * unredacted original among them) are swept once stale.
 */
const SOURCE = join(TRACES_DIR, "claude_code_jsonl/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl");
const SECRET = "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB";
const MEGABYTES = 3;

for (const engine of ENGINES) {
  describe(`in-request uploads with the studio SIGKILLed on ${engine}`, () => {
    let t: TestDb;
    let userId: string;
    const studios: UploadStudioProcess[] = [];

    before(async () => {
      t = await createTestDb(engine);
      userId = (await t.db.user.create({ data: { email: "uploader@test.local", name: "Uploader", passwordHash: "-", role: "reviewer" } })).id;
      // Raw originals kept: the upload's secret makes receiveUpload store a second blob before the import.
      await setRedactionSettings(t.db, { keepRawOriginals: true, redactEmails: false });
    });
    after(async () => {
      for (const s of studios) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
      await Promise.all(studios.map((s) => s.exited));
      await t.close();
    });

    async function start(): Promise<UploadStudioProcess> {
      const studio = await startUploadStudio(t.url, t.dataDir, userId);
      studios.push(studio);
      return studio;
    }

    function put(studio: UploadStudioProcess, name: string, bytes: Buffer): Promise<Response> {
      return fetch(`${studio.baseUrl}/api/uploads?name=${encodeURIComponent(name)}`, { method: "PUT", body: new Uint8Array(bytes) });
    }

    async function makeUpload(name: string, salt: string): Promise<Buffer> {
      const path = join(t.dataDir, name);
      await makeClaudeJsonl(SOURCE, path, MEGABYTES * 1024 * 1024, salt);
      const text = await readFile(path, "utf8");
      const withSecret = text.replace('"cwd":"/home/marco/projects/spotter"', `"cwd":"/home/marco/${SECRET}"`);
      assert.notEqual(withSecret, text, "the secret went into the file");
      await writeFile(path, withSecret);
      return Buffer.from(withSecret);
    }

    async function sessionsComplete(uploadId: string, expected: { id: string; messages: number }[]): Promise<void> {
      const sessions = await t.db.traceSession.findMany({ where: { uploadId }, orderBy: { ordinal: "asc" }, select: { id: true, messageCount: true } });
      assert.deepEqual(
        sessions.map((s) => ({ id: s.id, messages: s.messageCount })),
        expected.map((s) => ({ id: s.id, messages: s.messages })),
      );
      for (const s of sessions) assert.equal(await t.db.traceMessage.count({ where: { sessionId: s.id } }), s.messageCount, `every message of session ${s.id}`);
    }

    test(
      "SIGKILL inside the import's transaction: nothing half-imported, the answered upload intact, the same bytes import once after restart",
      { timeout: 55_000 },
      async () => {
        const first = await start();
        // An upload answered before the kill.
        const acked = await makeUpload("acknowledged.jsonl", "a_");
        const ackedResponse = await put(first, "acknowledged.jsonl", acked);
        const ackedBody = (await ackedResponse.json()) as UploadResponse;
        assert.equal(ackedResponse.status, 201, JSON.stringify(ackedBody).slice(0, 300));
        assert.ok(ackedBody.ok && ackedBody.data.status === "imported" && ackedBody.data.redaction?.rawKept);
        const ackedData = ackedBody.data;

        // The upload killed mid-import: its request is in flight while the transaction writes rows.
        const killed = await makeUpload("killed.jsonl", "k_");
        const inFlight = put(first, "killed.jsonl", killed).then(
          (response) => ({ answered: response.status }),
          (error: unknown) => ({ failed: error }),
        );
        let answered = false;
        void inFlight.then(() => (answered = true));
        await until(async () => answered || (await writeTransactionOpen(t)), "the import's transaction is open", 40_000, first);
        assert.equal(answered, false, "the studio answered before its transaction was seen open");
        first.child.kill("SIGKILL");
        assert.equal(await first.exited, "SIGKILL");
        const outcome = await inFlight;
        assert.ok("failed" in outcome, `the killed upload was never acknowledged: ${JSON.stringify(outcome)}`);

        // After the kill: only the acknowledged upload, complete; nothing of the killed one.
        assert.equal(await t.db.upload.count(), 1, "no upload row for the killed import");
        assert.equal((await t.db.upload.findFirstOrThrow()).id, ackedData.uploadId);
        assert.equal(await t.db.traceSession.count({ where: { uploadId: { not: ackedData.uploadId } } }), 0, "no half-imported session");
        assert.equal(await t.db.uploadRedaction.count(), 1, "no redaction report for the killed import");
        assert.equal(await t.db.uploadImport.count(), 0, "an in-request import leaves no import row behind");
        await sessionsComplete(ackedData.uploadId, ackedData.sessions);
        // The blobs are written before the transaction: the killed attempt's redacted file and raw original stay unreferenced.
        const leftBehind = blobsUnder(t.dataDir);
        assert.equal(leftBehind.length, 4, JSON.stringify(leftBehind));
        assert.ok(leftBehind.includes(blobKeyOf(killed)), "the killed upload's raw original was stored before its transaction");
        // So do its temp files, the unredacted original among them: the next upload sweeps them once
        // they are an hour old (aged here), and leaves a live request's fresh temp file alone.
        const temps = join(t.dataDir, "tmp", "uploads");
        const killedTemps = readdirSync(temps);
        assert.equal(killedTemps.length, 2, JSON.stringify(killedTemps));
        assert.ok(
          killedTemps.some((name) => readFileSync(join(temps, name), "utf8").includes(SECRET)),
          "the raw temp file holds the secret",
        );
        const anHourAgo = new Date(Date.now() - UPLOAD_TEMP_MAX_AGE_MS - 60_000);
        for (const name of killedTemps) await utimes(join(temps, name), anHourAgo, anHourAgo);
        await writeFile(join(temps, "in-flight.upload"), "another studio's request");

        // Restart: the same bytes import exactly once, reusing the blobs the killed attempt left.
        const second = await start();
        const retry = await put(second, "killed.jsonl", killed);
        const retryBody = (await retry.json()) as UploadResponse;
        assert.equal(retry.status, 201, JSON.stringify(retryBody).slice(0, 300));
        assert.ok(retryBody.ok && retryBody.data.status === "imported" && retryBody.data.redaction?.rawKept);
        await sessionsComplete(retryBody.data.uploadId, retryBody.data.sessions);
        assert.deepEqual(readdirSync(temps), ["in-flight.upload"], "the killed request's temp files are swept");
        const again = await put(second, "killed.jsonl", killed);
        const againBody = (await again.json()) as UploadResponse;
        assert.equal(again.status, 200);
        assert.ok(againBody.ok && againBody.data.status === "duplicate" && againBody.data.uploadId === retryBody.data.uploadId);
        assert.equal(await t.db.upload.count(), 2, "the killed file imported exactly once");
        await sessionsComplete(ackedData.uploadId, ackedData.sessions);

        // Every stored blob is referenced (redacted file or kept raw original) and holds its sha256's bytes.
        const uploads = await t.db.upload.findMany({ select: { storageKey: true } });
        const raws = await t.db.uploadRedaction.findMany({ select: { rawStorageKey: true } });
        const referenced = [...uploads.map((u) => u.storageKey), ...raws.map((r) => r.rawStorageKey!)].sort();
        assert.equal(new Set(referenced).size, 4, "two uploads, each with its redacted file and raw original");
        assert.deepEqual(blobsUnder(t.dataDir), referenced, "no blob stored twice, none unreferenced, no partial blob");
        assert.ok(referenced.includes(blobKeyOf(killed)), "the raw original of the killed upload is kept once");
        second.child.kill("SIGTERM");
        assert.equal(await second.exited, "SIGTERM");
      },
    );
  });
}

/** Every file in the blob store's `uploads/` tree, as blob keys; checks each holds its sha256's bytes. */
function blobsUnder(root: string): string[] {
  const dir = join(root, "uploads");
  const walk = (path: string): string[] => (statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => walk(join(path, name))) : [path]);
  return walk(dir)
    .map((path) => {
      const key = relative(root, path);
      if (key.endsWith(".tmp")) return key;
      assert.equal(`uploads/${sha256(readFileSync(path)).slice(0, 2)}/${sha256(readFileSync(path))}`, key, `blob ${key} holds its bytes`);
      return key;
    })
    .sort();
}

function blobKeyOf(bytes: Buffer): string {
  const sha = sha256(bytes);
  return `uploads/${sha.slice(0, 2)}/${sha}`;
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}
