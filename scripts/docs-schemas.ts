/**
 * `npm run docs:schemas`: writes the JSON Schemas of Tracefold's public JSON contracts into docs/,
 * generated from the zod schemas the code validates with, so the documentation cannot drift from
 * the code (tests/unit/docs/schemas.test.ts fails when a file differs from what this writes).
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { DOC_SCHEMAS, renderSchema } from "./docs-schema-list";

for (const doc of DOC_SCHEMAS) {
  writeFileSync(resolve(__dirname, "..", doc.file), renderSchema(doc));
  console.log(`wrote ${doc.file}`);
}
