import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { s3BlobStore } from "../../../server/storage/s3-blob-store";
import { canonicalQuery, signatureV4 } from "../../../server/storage/s3-request";
import type { S3Settings } from "../../../server/storage/storage-config";

const key = (c: string) => `uploads/${c}${c}/${c.repeat(64)}`;

/** Two ListObjectsV2 pages, as AWS writes them (a token with characters that need encoding). */
const PAGES: Record<string, string> = {
  "": `<ListBucketResult><Name>tf</Name><Prefix>uploads/</Prefix><KeyCount>2</KeyCount><IsTruncated>true</IsTruncated><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
<Contents><Key>${key("a")}</Key><LastModified>2026-01-02T03:04:05.000Z</LastModified><ETag>&quot;x&quot;</ETag><Size>10</Size></Contents>
<Contents><Key>${key("b")}</Key><LastModified>2026-01-02T03:04:06.000Z</LastModified><Size>20</Size></Contents></ListBucketResult>`,
  "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=": `<ListBucketResult><IsTruncated>false</IsTruncated>
<Contents><Key>${key("c")}</Key><LastModified>2026-01-02T03:04:07.000Z</LastModified><Size>30</Size></Contents>
<Contents><Key>uploads/notes &amp; more.txt</Key><LastModified>2026-01-02T03:04:08.000Z</LastModified><Size>1</Size></Contents></ListBucketResult>`,
};

/**
 * s3rver cannot page (its continuation tokens use DES, which Node 20's OpenSSL 3 refuses), so a
 * stub bucket on loopback serves the pages — and checks each request's signature over the query
 * string it received, as S3 would.
 */
describe("S3 listing across pages", () => {
  let server: http.Server;
  let settings: S3Settings;
  const seen: string[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, "http://stub");
      const query = canonicalQuery(Object.fromEntries(url.searchParams));
      const headers = {
        host: req.headers.host!,
        "x-amz-content-sha256": String(req.headers["x-amz-content-sha256"]),
        "x-amz-date": String(req.headers["x-amz-date"]),
      };
      const expected = signatureV4(settings, req.method!, url.pathname, headers, query);
      const token = url.searchParams.get("continuation-token") ?? "";
      seen.push(`${url.pathname}?${query}`);
      if (req.headers.authorization !== expected || url.searchParams.get("list-type") !== "2" || PAGES[token] === undefined) {
        res.writeHead(403).end("<Error><Code>SignatureDoesNotMatch</Code></Error>");
        return;
      }
      res.writeHead(200, { "content-type": "application/xml" }).end(PAGES[token]);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    settings = { endpoint: `http://127.0.0.1:${port}`, bucket: "tf", region: "us-east-1", accessKeyId: "AK", secretAccessKey: "SK", forcePathStyle: true };
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  test("follows NextContinuationToken to the last page, signs each query, and yields only blob keys", async () => {
    const listed = [];
    for await (const info of s3BlobStore(settings).list("uploads")) listed.push(info);
    assert.deepEqual(listed, [
      { key: key("a"), bytes: 10, lastModified: new Date("2026-01-02T03:04:05.000Z") },
      { key: key("b"), bytes: 20, lastModified: new Date("2026-01-02T03:04:06.000Z") },
      { key: key("c"), bytes: 30, lastModified: new Date("2026-01-02T03:04:07.000Z") },
    ]);
    assert.deepEqual(seen, [
      "/tf?list-type=2&prefix=uploads%2F",
      "/tf?continuation-token=1ueGcxLPRx1Tr%2FXYExHnhbYLgveDs2J%2Fwm36Hy4vbOwM%3D&list-type=2&prefix=uploads%2F",
    ]);
  });

  test("a refused listing fails with the operation and the server's code", async () => {
    const wrong = s3BlobStore({ ...settings, secretAccessKey: "not-the-secret" });
    await assert.rejects(async () => {
      for await (const info of wrong.list("sidecars")) assert.fail(`listed ${info.key}`);
    }, /S3 LIST sidecars\/ failed: 403 SignatureDoesNotMatch/);
  });
});
