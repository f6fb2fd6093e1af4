import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

/**
 * Every route handler under app/api (and app/v1) that exports POST, PUT, PATCH or DELETE calls
 * refuseCrossOrigin(request) (server/security/same-origin.ts) before anything else, so a new
 * mutating route cannot ship without CSRF protection (e2e/authz-probes.spec.ts probes them live).
 */
/** Route handlers live under app/api, and the OTLP endpoint at app/v1 (where exporters send by default). */
const ROOTS = [join(process.cwd(), "app", "api"), join(process.cwd(), "app", "v1")];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? routeFiles(path) : entry.name === "route.ts" ? [path] : [];
  });
}

test("every mutating route handler refuses other origins first", () => {
  const mutating = ROOTS.flatMap(routeFiles).filter((file) =>
    /export\s+(async\s+function|const)\s+(POST|PUT|PATCH|DELETE)\b|export\s*\{[^}]*\b(POST|PUT|PATCH|DELETE)\b[^}]*\}/.test(readFileSync(file, "utf8")),
  );
  assert.ok(mutating.length >= 4, `only ${mutating.length} mutating routes found`);
  const unguarded = mutating.filter((file) => {
    const source = readFileSync(file, "utf8");
    // The guard is the first statement of each mutating handler.
    const handlers = [...source.matchAll(/(?:export\s+)?async\s+function\s+(POST|PUT|PATCH|DELETE)\s*\([^)]*\)[^{]*\{\s*([^\n]*)/g)];
    return handlers.length === 0 || handlers.some((m) => !m[2]!.startsWith("const crossOrigin = refuseCrossOrigin(request);"));
  });
  assert.deepEqual(
    unguarded.map((file) => relative(process.cwd(), file)),
    [],
  );
});
