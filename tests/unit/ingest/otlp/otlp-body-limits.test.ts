import assert from "node:assert/strict";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import type { ApiPrincipal } from "../../../../server/auth/key-principal";
import { OtlpBodyError, readOtlpBody } from "../../../../server/ingest/otlp/read-otlp-body";
import { receiveOtlpRequest } from "../../../../server/ingest/otlp/receive-otlp-request";

/**
 * Issue 15's bad input at the OTLP endpoint: a body past the upload limit and a gzip bomb are refused
 * with 413 before anything is parsed or written (the body is read, and gunzipped, against the limit:
 * a count, not Content-Length alone), broken gzip is 400 and an unknown encoding 415.
 */
const LIMIT = 64 * 1024;
const post = (body: BodyInit, headers: Record<string, string>) =>
  new Request("http://studio.test/v1/traces", { method: "POST", body, headers, duplex: "half" } as RequestInit);

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof OtlpBodyError, String(error));
    return { status: error.status, code: error.code, message: error.message };
  }
  assert.fail("the body was accepted");
}

test("a body past the limit is refused by its declared length, and by its count when the length is not declared", async () => {
  const big = new Uint8Array(LIMIT + 1);
  assert.deepEqual(await refusal(readOtlpBody(post(big, { "content-length": String(big.length) }), LIMIT, "too big")), {
    status: 413,
    code: "too_large",
    message: "too big",
  });
  const streamed = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 3; i++) controller.enqueue(new Uint8Array(LIMIT / 2));
      controller.close();
    },
  });
  assert.deepEqual(await refusal(readOtlpBody(post(streamed, {}), LIMIT, "too big")), { status: 413, code: "too_large", message: "too big" });
});

test("a gzip bomb is refused once it expands past the limit; broken gzip and unknown encodings get their own answers", async () => {
  const bomb = gzipSync(new Uint8Array(64 * LIMIT));
  assert.ok(bomb.length < LIMIT / 8, "small on the wire");
  assert.deepEqual(await refusal(readOtlpBody(post(bomb, { "content-encoding": "gzip" }), LIMIT, "too big")), {
    status: 413,
    code: "too_large",
    message: "too big (after gunzip)",
  });
  const broken = await refusal(readOtlpBody(post(new Uint8Array([1, 2, 3]), { "content-encoding": "gzip" }), LIMIT, "too big"));
  assert.deepEqual([broken.status, broken.code], [400, "malformed_gzip"]);
  const brotli = await refusal(readOtlpBody(post("{}", { "content-encoding": "br" }), LIMIT, "too big"));
  assert.deepEqual([brotli.status, brotli.code], [415, "unsupported_encoding"]);
  const small = gzipSync(Buffer.from('{"resourceSpans":[]}'));
  assert.equal(Buffer.from(await readOtlpBody(post(small, { "content-encoding": "gzip" }), LIMIT, "too big")).toString("utf8"), '{"resourceSpans":[]}');
});

test("the endpoint answers a gzip bomb with 413 naming the limit, under TRACEFOLD_MAX_UPLOAD_MB", async () => {
  const previous = process.env.TRACEFOLD_MAX_UPLOAD_MB;
  process.env.TRACEFOLD_MAX_UPLOAD_MB = "1";
  try {
    const principal = { id: "user", email: "ingest@example.test", role: "reviewer" } as unknown as ApiPrincipal;
    const bomb = gzipSync(new Uint8Array(8 * 1024 * 1024));
    const response = await receiveOtlpRequest(post(bomb, { "content-type": "application/json", "content-encoding": "gzip" }), principal);
    assert.equal(response.status, 413);
    const body = (await response.json()) as { ok: boolean; code: string; message: string };
    assert.deepEqual([body.ok, body.code], [false, "too_large"]);
    assert.match(body.message, /1 MB/);
    const text = await receiveOtlpRequest(post("{}", { "content-type": "text/plain" }), principal);
    assert.equal(text.status, 415);
  } finally {
    if (previous === undefined) delete process.env.TRACEFOLD_MAX_UPLOAD_MB;
    else process.env.TRACEFOLD_MAX_UPLOAD_MB = previous;
  }
});
