import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import {
  isMultipart,
  maxUploadBytes,
  ONE_FILE_PER_REQUEST_MESSAGE,
  rateLimitedMessage,
  tooLargeMessage,
  uploadsPerMinute,
} from "../../../../server/trace/import/upload-limits";
import { createUploadRateLimiter } from "../../../../server/trace/import/upload-rate";
import { UploadTooLargeError, writeBodyToFile } from "../../../../server/trace/import/write-body-to-file";

const dir = mkdtempSync(join(tmpdir(), "tracefold-limits-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("size", () => {
  test("TRACEFOLD_MAX_UPLOAD_MB sets the limit; unset, blank or nonsense falls back to 512 MB", () => {
    assert.equal(maxUploadBytes({ TRACEFOLD_MAX_UPLOAD_MB: "2" }), 2 * 1024 * 1024);
    assert.equal(maxUploadBytes({}), 512 * 1024 * 1024);
    assert.equal(maxUploadBytes({ TRACEFOLD_MAX_UPLOAD_MB: " " }), 512 * 1024 * 1024);
    assert.equal(maxUploadBytes({ TRACEFOLD_MAX_UPLOAD_MB: "-1" }), 512 * 1024 * 1024);
  });

  test("the 413 message names the limit and the setting", () => {
    assert.equal(
      tooLargeMessage(2 * 1024 * 1024),
      "the file is larger than the upload limit of 2 MB (TRACEFOLD_MAX_UPLOAD_MB); import it with the CLI instead",
    );
    assert.equal(tooLargeMessage(1536 * 1024), "the file is larger than the upload limit of 1.5 MB (TRACEFOLD_MAX_UPLOAD_MB); import it with the CLI instead");
  });

  test("a body one byte over the limit is refused while streaming and leaves no file", async () => {
    const path = join(dir, "over.upload");
    const body = new Blob([new Uint8Array(1025)]).stream();
    await assert.rejects(writeBodyToFile(body, path, 1024), (e: unknown) => e instanceof UploadTooLargeError && e.limitBytes === 1024);
    assert.equal(existsSync(path), false);
    assert.equal(await writeBodyToFile(new Blob([new Uint8Array(1024)]).stream(), join(dir, "exact.upload"), 1024), 1024);
    assert.deepEqual(readdirSync(dir).sort(), ["exact.upload"]);
  });
});

describe("rate", () => {
  test("TRACEFOLD_UPLOADS_PER_MINUTE sets the limit; a non-positive or fractional value falls back to 120", () => {
    assert.equal(uploadsPerMinute({ TRACEFOLD_UPLOADS_PER_MINUTE: "3" }), 3);
    assert.equal(uploadsPerMinute({}), 120);
    assert.equal(uploadsPerMinute({ TRACEFOLD_UPLOADS_PER_MINUTE: "0" }), 120);
    assert.equal(uploadsPerMinute({ TRACEFOLD_UPLOADS_PER_MINUTE: "2.5" }), 120);
  });

  test("the limit+1st upload within a minute is refused until the oldest leaves the window; users count apart", () => {
    const limiter = createUploadRateLimiter(() => 3);
    const t0 = 1_000_000;
    for (const at of [t0, t0 + 10_000, t0 + 20_000]) assert.deepEqual(limiter.take("ann", at), { ok: true });
    assert.deepEqual(limiter.take("ann", t0 + 30_000), { ok: false, retryAfterSeconds: 30 });
    assert.deepEqual(limiter.take("bob", t0 + 30_000), { ok: true }, "another user has their own budget");
    assert.deepEqual(limiter.take("ann", t0 + 59_999), { ok: false, retryAfterSeconds: 1 });
    assert.deepEqual(limiter.take("ann", t0 + 60_000), { ok: true }, "the first upload left the window");
    assert.deepEqual(limiter.take("ann", t0 + 60_001), { ok: false, retryAfterSeconds: 10 });
  });

  test("the 429 message names the limit, the setting and the wait", () => {
    assert.equal(rateLimitedMessage(3, 30), "too many uploads: at most 3 per minute per user (TRACEFOLD_UPLOADS_PER_MINUTE); try again in 30 s");
  });
});

describe("files per request", () => {
  test("multipart forms (which can carry many files) are recognised in any case; raw bodies are not", () => {
    assert.equal(isMultipart("multipart/form-data; boundary=----x"), true);
    assert.equal(isMultipart("Multipart/Mixed"), true);
    assert.equal(isMultipart("application/octet-stream"), false);
    assert.equal(isMultipart(null), false);
    assert.equal(ONE_FILE_PER_REQUEST_MESSAGE, "send one file per request as the raw request body (multipart form uploads are not accepted)");
  });
});
