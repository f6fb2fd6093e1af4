import assert from "node:assert/strict";
import { test } from "node:test";
import { fromSpreadsheetSafe, spreadsheetSafe } from "../../../lib/util/spreadsheet-safe";

test("formula-looking cells get one leading quote; every string round-trips", () => {
  assert.equal(spreadsheetSafe("=1+1"), "'=1+1");
  assert.equal(spreadsheetSafe("'=1+1"), "''=1+1");
  assert.equal(spreadsheetSafe("'quoted"), "'quoted");
  assert.equal(spreadsheetSafe("a=b"), "a=b");
  for (const s of ["", "=", "'", "''", "'=", "''=", "-", "x-", "'x", "@a", "\t", "\r\n", "normal"])
    assert.equal(fromSpreadsheetSafe(spreadsheetSafe(s)), s, JSON.stringify(s));
});
