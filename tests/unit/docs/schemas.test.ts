import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { DOC_SCHEMAS, renderSchema } from "../../../scripts/docs-schema-list";

/** The JSON Schemas in docs/ are exactly what the code validates with (regenerate: npm run docs:schemas). */
for (const doc of DOC_SCHEMAS) {
  test(`${doc.file} matches the zod schema it documents`, () => {
    const onDisk = readFileSync(resolve(__dirname, "../../..", doc.file), "utf8");
    assert.equal(onDisk, renderSchema(doc), `${doc.file} is stale: run npm run docs:schemas`);
  });
}
