import { expect, test } from "@playwright/test";
import { MATRIX } from "./authz-matrix";
import { listEntryPoints } from "./fixtures/route-inventory";

/* The authorization matrix (e2e/authz-matrix.ts) names every entry point of app/, and no other. */
test("every page, route handler and server action has expected answers in the matrix", () => {
  const named = new Set(MATRIX.map((row) => row.key));
  const found = listEntryPoints("app");
  expect(found.length).toBeGreaterThan(40);
  const missing = found.filter((key) => !named.has(key)).map((key) => `route ${key} has no expected answers in the matrix`);
  const stale = [...named].filter((key) => !found.includes(key)).map((key) => `matrix row ${key} names no entry point in app/`);
  expect([...missing, ...stale]).toEqual([]);
});
