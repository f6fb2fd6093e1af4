import assert from "node:assert/strict";
import { test } from "node:test";
import { formatDateTime, instantOf } from "../../../lib/util/format-date-time";
import { studioSourceLines } from "./studio-source";

test("one format, always in UTC and naming the zone, from a Date, epoch ms or any ISO-8601 instant", () => {
  const expected = "2026-05-29 18:04 UTC";
  assert.equal(formatDateTime("2026-05-29T18:04:09.123Z"), expected);
  assert.equal(formatDateTime("2026-05-29T20:04:09+02:00"), expected);
  assert.equal(formatDateTime(Date.parse("2026-05-29T18:04:09Z")), expected);
  assert.equal(formatDateTime(new Date("2026-05-29T18:04:09Z")), expected);
  assert.equal(formatDateTime("2026-05-29T18:04:09Z", { seconds: true }), "2026-05-29 18:04:09 UTC");
});

test("a wall-clock time without a zone is shown as written and says so; nonsense is shown as given", () => {
  assert.equal(formatDateTime("2024-08-05T19:33:51"), "2024-08-05 19:33 (no zone)");
  assert.equal(formatDateTime("2024-08-05 19:33:51", { seconds: true }), "2024-08-05 19:33:51 (no zone)");
  assert.equal(formatDateTime("yesterday"), "yesterday");
});

test("instants order dates of any form; a zone-less one is ordered as if UTC; none is null", () => {
  assert.equal(instantOf("2026-05-29T20:04:00+02:00"), Date.parse("2026-05-29T18:04:00Z"));
  assert.equal(instantOf("2024-08-05T19:33:51"), Date.parse("2024-08-05T19:33:51Z"));
  assert.equal(instantOf("later"), null);
  assert.equal(instantOf(null), null);
  assert.equal(instantOf(undefined), null);
});

/** Ways of writing a date that bypass the helper: the viewer's locale, or a hand-cut ISO string. */
const BYPASS =
  /toLocaleDateString|toLocaleTimeString|Intl\.DateTimeFormat|Date\([^)]*\)\.toLocaleString|toISOString\(\)\.slice|\.slice\(0, 1[069]\)\.replace\("T"|At\??\.slice\(0, /;

test("every page writes dates through formatDateTime", () => {
  const offenders = studioSourceLines()
    .filter((l) => BYPASS.test(l.text))
    .map((l) => `${l.file}:${l.line}: ${l.text.trim()}`);
  assert.deepEqual(offenders, []);
});
