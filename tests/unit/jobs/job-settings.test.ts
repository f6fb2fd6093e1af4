import assert from "node:assert/strict";
import { test } from "node:test";
import { asyncImportBytes } from "../../../server/trace/import/async-import-threshold";

/** TRACEFOLD_ASYNC_IMPORT_MB decides which uploads a job worker imports; a bad value falls back to 32 MB. */
test("the async import threshold: default 32 MB, 0 sends every upload to a worker, fractions allowed, junk ignored", () => {
  const MB = 1024 * 1024;
  assert.equal(asyncImportBytes({}), 32 * MB);
  assert.equal(asyncImportBytes({ TRACEFOLD_ASYNC_IMPORT_MB: "" }), 32 * MB);
  assert.equal(asyncImportBytes({ TRACEFOLD_ASYNC_IMPORT_MB: "0" }), 0);
  assert.equal(asyncImportBytes({ TRACEFOLD_ASYNC_IMPORT_MB: "1.5" }), 1.5 * MB);
  assert.equal(asyncImportBytes({ TRACEFOLD_ASYNC_IMPORT_MB: "-3" }), 32 * MB);
  assert.equal(asyncImportBytes({ TRACEFOLD_ASYNC_IMPORT_MB: "lots" }), 32 * MB);
});
