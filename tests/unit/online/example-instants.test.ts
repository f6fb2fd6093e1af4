import assert from "node:assert/strict";
import { test } from "node:test";
import { exampleInstants, NEUTRAL_EXAMPLES } from "@/lib/online/estimation/example-instants";
import { OnlineQuerySchema } from "@/server/online/report-query";

test("placeholders come from the log's own range, on quarter hours, and the report accepts them", () => {
  const first = "2025-01-06T08:07:00.000Z";
  const last = "2025-01-08T21:52:00.000Z";
  const examples = exampleInstants(first, last);
  assert.equal(examples.rollout, "2025-01-07T14:00:00Z");
  assert.equal(examples.volatile, "2025-01-07T14:00:00Z/2025-01-07T16:00:00Z");
  const [from, to] = examples.volatile.split("/").map(Date.parse) as [number, number];
  assert.ok(Date.parse(first) <= from && to <= Date.parse(last));
  const parsed = OnlineQuerySchema.parse({ rollout: examples.rollout, volatile: examples.volatile });
  assert.equal(parsed.rollout, Date.parse(examples.rollout));
  assert.deepEqual(parsed.volatile, [{ start: from, end: to }]);
});

test("a short log keeps the volatile example inside it; no range gives neutral examples, never the demo week", () => {
  const short = exampleInstants("2025-03-01T10:40:00Z", "2025-03-01T10:58:00Z");
  assert.equal(short.rollout, "2025-03-01T10:45:00Z");
  assert.equal(short.volatile, "2025-03-01T10:45:00Z/2025-03-01T11:00:00Z");
  assert.deepEqual(exampleInstants(null, null), NEUTRAL_EXAMPLES);
  assert.doesNotMatch(JSON.stringify(NEUTRAL_EXAMPLES), /\d{4}-\d{2}/);
});
