import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { test } from "node:test";
import { openApiDocument } from "../../../../server/ingest/api-v1/openapi";

const V1 = join(process.cwd(), "app", "api", "v1");

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? routeFiles(path) : entry.name === "route.ts" ? [path] : [];
  });
}

/** `app/api/v1/sessions/[id]/route.ts` exporting GET → `get /api/v1/sessions/{id}`. */
function operationsOf(file: string): string[] {
  const path = `/api/v1/${relative(V1, file).split(sep).slice(0, -1).join("/")}`.replace(/\/$/, "").replace(/\[(\w+)\]/g, "{$1}");
  const source = readFileSync(file, "utf8");
  const declared = [...source.matchAll(/export\s+async\s+function\s+(GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!);
  const reexported = [...source.matchAll(/export\s*\{([^}]*)\}\s*from/g)]
    .flatMap((m) =>
      m[1]!.split(",").map((name) =>
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
      ),
    )
    .filter((name) => /^(GET|POST|PUT|PATCH|DELETE)$/.test(name));
  const methods = [...declared, ...reexported].map((m) => m.toLowerCase());
  return methods.map((method) => `${method} ${path}`);
}

test("the OpenAPI document describes exactly the /api/v1 routes app/ has", () => {
  const doc = openApiDocument() as { openapi: string; paths: Record<string, Record<string, unknown>> };
  assert.equal(doc.openapi, "3.1.0");
  const documented = Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`))
    .sort();
  const routes = routeFiles(V1).flatMap(operationsOf).sort();
  assert.ok(routes.length >= 7, routes.join(", "));
  assert.deepEqual(documented, routes);
});

test("every $ref in the document points at a component it defines", () => {
  const doc = openApiDocument() as { components: { schemas: Record<string, unknown> } };
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
  assert.ok(refs.length > 5);
  for (const ref of new Set(refs)) assert.ok(doc.components.schemas[ref], `missing component ${ref}`);
  const session = doc.components.schemas.Session as { properties: Record<string, unknown>; required: string[] };
  for (const field of ["id", "externalId", "format", "messages", "toolCalls"]) assert.ok(session.required.includes(field), field);
});
