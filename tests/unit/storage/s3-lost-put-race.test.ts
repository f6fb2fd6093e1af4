import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { s3BlobStore } from "../../../server/storage/s3-blob-store";
import type { S3Settings } from "../../../server/storage/storage-config";

/** One scripted answer of the fake S3 server. */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

const BYTES = Buffer.from("folded payload, put by two workers at once");
const SHA = createHash("sha256").update(BYTES).digest("hex");
const KEY = `sidecars/${SHA.slice(0, 2)}/${SHA}`;
const slowDown = (status: number): Answer => ({ status, body: "<Error><Code>SlowDown</Code><Message>the object was just written</Message></Error>" });
const present = (bytes: number, when = new Date()): Answer => ({
  status: 200,
  headers: { "content-length": String(bytes), "last-modified": when.toUTCString() },
});

/**
 * What a put does when another writer of the same bytes wins: servers that limit how often one
 * object is rewritten (429 or 503 SlowDown) refuse the second PUT. A scripted server stands in for
 * the race (s3rver never refuses), answering each request in turn and recording what was asked.
 */
describe("S3 put that loses a race to another writer of the same bytes", () => {
  let server: Server;
  let settings: S3Settings;
  let script: Answer[] = [];
  const asked: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        asked.push(`${request.method} ${decodeURIComponent(request.url ?? "").replace("/bucket/", "")}`);
        const answer = script.shift() ?? { status: 500, body: "<Error><Code>Unscripted</Code></Error>" };
        response.writeHead(answer.status, answer.headers);
        response.end(request.method === "HEAD" ? undefined : answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    settings = { endpoint: `http://127.0.0.1:${port}`, bucket: "bucket", region: "us-east-1", accessKeyId: "k", secretAccessKey: "s", forcePathStyle: true };
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const run = (...answers: Answer[]) => {
    script = answers;
    asked.length = 0;
    return s3BlobStore(settings).putBytes(BYTES, "sidecars");
  };

  test("a refused PUT counts as done when the object is now there with these bytes' size, just written", async () => {
    for (const status of [429, 503]) {
      assert.deepEqual(await run({ status: 404 }, slowDown(status), present(BYTES.length)), { key: KEY, sha256: SHA, created: false });
      assert.deepEqual(asked, [`HEAD ${KEY}`, `PUT ${KEY}`, `HEAD ${KEY}`]);
    }
  });

  test("a refused PUT still fails when the object is not there, has another size, or is old", async () => {
    await assert.rejects(run({ status: 404 }, slowDown(503), { status: 404 }), new RegExp(`^S3Error: S3 PUT ${KEY} failed: 503 SlowDown`));
    await assert.rejects(run({ status: 404 }, slowDown(503), present(BYTES.length - 1)), /S3 PUT .* failed: 503 SlowDown/);
    await assert.rejects(run({ status: 404 }, slowDown(503), present(BYTES.length, new Date(Date.now() - 3_600_000))), /S3 PUT .* failed: 503 SlowDown/);
  });

  test("an object under the key with another size is not these bytes: it is uploaded again", async () => {
    assert.deepEqual(await run(present(3), { status: 200 }), { key: KEY, sha256: SHA, created: true });
    assert.deepEqual(asked, [`HEAD ${KEY}`, `PUT ${KEY}`]);
  });
});
