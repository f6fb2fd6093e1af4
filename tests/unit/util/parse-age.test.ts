import assert from "node:assert/strict";
import { test } from "node:test";
import { parseAge } from "../../../lib/util/parse-age";

test("ages: days by default, h and m suffixes; anything else is null", () => {
  assert.equal(parseAge("30d"), 30 * 86_400_000);
  assert.equal(parseAge("30"), 30 * 86_400_000);
  assert.equal(parseAge(" 12H "), 12 * 3_600_000);
  assert.equal(parseAge("90m"), 90 * 60_000);
  assert.equal(parseAge("1.5d"), 1.5 * 86_400_000);
  for (const bad of ["", "0d", "-3d", "30 days", "d", "3w", "1e3"]) assert.equal(parseAge(bad), null, bad);
});
