import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { BlobStoreCheckError, checkBlobStore, checkConfiguredBlobStore } from "../../../server/storage/check-blob-store";
import { canonicalQuery, readText, s3Request, signatureV4 } from "../../../server/storage/s3-request";
import { StorageConfigError, type S3Settings } from "../../../server/storage/storage-config";
import { startTestS3, type TestS3 } from "../../helpers/s3-server";
import { startWorker } from "../../helpers/worker-process";

const s3Config = (settings: S3Settings) => ({ backend: "s3" as const, ...settings });

describe("blob store check against s3rver", () => {
  let s3: TestS3;
  before(async () => {
    s3 = await startTestS3();
  });
  after(() => s3.close());

  test("the right settings pass, and the probe object is removed again", async () => {
    await checkBlobStore(s3Config(s3.settings));
    const listing = await s3Request(s3.settings, { method: "GET", query: { "list-type": "2", prefix: "probe/" } });
    assert.equal(listing.status, 200);
    assert.doesNotMatch(await readText(listing.body), /<Contents>/, "no probe object left behind");
  });

  test("a wrong bucket fails naming TRACEFOLD_S3_BUCKET and what the store answered", async () => {
    await assert.rejects(
      checkBlobStore(s3Config({ ...s3.settings, bucket: "no-such-bucket" })),
      (error: unknown) =>
        error instanceof BlobStoreCheckError &&
        /^blob store check failed: TRACEFOLD_S3_BUCKET names no bucket \(TRACEFOLD_STORAGE=s3, bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+\): S3 PUT probe\/[0-9a-f]+ failed: 404 NoSuchBucket/.test(
          error.message,
        ),
    );
  });

  test("an unknown access key fails naming TRACEFOLD_S3_ACCESS_KEY_ID", async () => {
    await assert.rejects(
      checkBlobStore(s3Config({ ...s3.settings, accessKeyId: "NOT-A-KEY" })),
      /TRACEFOLD_S3_ACCESS_KEY_ID is not known to the store .*403 InvalidAccessKeyId/,
    );
  });

  test("an endpoint nobody answers on fails naming TRACEFOLD_S3_ENDPOINT", async () => {
    const closed = http.createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((done) => closed.close(() => done()));
    await assert.rejects(
      checkBlobStore(s3Config({ ...s3.settings, endpoint: `http://127.0.0.1:${port}` })),
      /TRACEFOLD_S3_ENDPOINT cannot be reached .*ECONNREFUSED/,
    );
  });

  test("a worker started with a wrong bucket exits 1 before doing anything, naming the setting", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tracefold-check-"));
    try {
      const worker = startWorker(`file:${join(dir, "w.db")}`, dir, {
        TRACEFOLD_STORAGE: "s3",
        TRACEFOLD_S3_ENDPOINT: s3.settings.endpoint,
        TRACEFOLD_S3_BUCKET: "wrong-bucket",
        TRACEFOLD_S3_ACCESS_KEY_ID: s3.settings.accessKeyId,
        TRACEFOLD_S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey,
      });
      assert.equal(await worker.exited, 1, worker.output());
      assert.match(
        worker.output(),
        /tracefold worker \d+ cannot start: blob store check failed: TRACEFOLD_S3_BUCKET names no bucket .*"wrong-bucket".*404 NoSuchBucket/,
      );
      assert.deepEqual(readdirSync(dir), [], "the database was not even migrated");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * s3rver does not verify V4 signatures, so a wrong secret goes unnoticed there; this stub bucket
 * checks every request's signature with the real secret, as S3 does, and keeps objects in memory.
 */
describe("blob store check against a bucket that verifies signatures", () => {
  let server: http.Server;
  let settings: S3Settings;
  before(async () => {
    const objects = new Map<string, Buffer>();
    server = http.createServer(async (req, res) => {
      const url = new URL(req.url!, "http://stub");
      const signed = /SignedHeaders=([^,]+)/.exec(req.headers.authorization ?? "")?.[1]?.split(";") ?? [];
      const headers = Object.fromEntries(signed.map((name) => [name, String(req.headers[name])]));
      const expected = signatureV4(settings, req.method!, url.pathname, headers, canonicalQuery(Object.fromEntries(url.searchParams)));
      const body = await readText(req);
      if (req.headers.authorization !== expected) {
        res
          .writeHead(403)
          .end(
            "<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error>",
          );
        return;
      }
      if (req.method === "PUT") objects.set(url.pathname, Buffer.from(body));
      if (req.method === "GET" && !objects.has(url.pathname)) return void res.writeHead(404).end("<Error><Code>NoSuchKey</Code></Error>");
      if (req.method === "DELETE") objects.delete(url.pathname);
      res.writeHead(req.method === "DELETE" ? 204 : 200).end(req.method === "GET" ? objects.get(url.pathname) : undefined);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    settings = {
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      bucket: "tf",
      region: "us-east-1",
      accessKeyId: "AK",
      secretAccessKey: "the-secret",
      forcePathStyle: true,
    };
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  test("the right secret passes", async () => {
    await checkBlobStore(s3Config(settings));
  });

  test("a wrong secret fails naming TRACEFOLD_S3_SECRET_ACCESS_KEY and the store's answer", async () => {
    await assert.rejects(
      checkBlobStore(s3Config({ ...settings, secretAccessKey: "not-the-secret" })),
      /^BlobStoreCheckError: blob store check failed: TRACEFOLD_S3_SECRET_ACCESS_KEY does not match the access key \(TRACEFOLD_STORAGE=s3, bucket "tf" at .*\): S3 PUT probe\/[0-9a-f]+ failed: 403 SignatureDoesNotMatch \(The request signature we calculated/,
    );
  });
});

describe("blob store check on local disk", () => {
  test("a writable data directory passes (created when missing) and keeps no probe file", async () => {
    const root = mkdtempSync(join(tmpdir(), "tracefold-check-"));
    try {
      await checkBlobStore({ backend: "local" }, { root: join(root, "data") });
      assert.deepEqual(readdirSync(join(root, "data")), []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("a data directory that cannot be written fails naming TRACEFOLD_DATA_DIR", async () => {
    const root = mkdtempSync(join(tmpdir(), "tracefold-check-"));
    try {
      writeFileSync(join(root, "a-file"), "");
      await assert.rejects(
        checkBlobStore({ backend: "local" }, { root: join(root, "a-file", "data") }),
        /^BlobStoreCheckError: blob store check failed: TRACEFOLD_DATA_DIR ".*a-file\/data" is not a writable directory \(TRACEFOLD_STORAGE=local\): .*ENOTDIR/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("a setting that does not parse is reported as such before any probe", async () => {
    await assert.rejects(
      checkConfiguredBlobStore({ TRACEFOLD_STORAGE: "s3", TRACEFOLD_S3_ACCESS_KEY_ID: "a", TRACEFOLD_S3_SECRET_ACCESS_KEY: "b" }),
      (e: unknown) => e instanceof StorageConfigError && /TRACEFOLD_S3_BUCKET/.test(e.message),
    );
  });
});
