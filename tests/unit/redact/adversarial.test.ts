import assert from "node:assert/strict";
import { test } from "node:test";
import { findSecrets } from "../../../lib/redact";
import { adversarialInputs } from "../../fixtures/redact-adversarial";

/**
 * A hang guard, not a timing test: a rule that backtracks quadratically needs minutes for 256 KB of
 * these inputs (a linear scan takes milliseconds), so the suite's timeout catches it whatever the
 * machine's load. Their speed against plain text is measured by `npm run bench` (redact).
 */
const INPUTS = adversarialInputs(256 * 1024);

for (const [name, input] of Object.entries(INPUTS)) {
  test(`finishes on adversarial input: ${name}`, { timeout: 120_000 }, () => {
    // Every finding is a span inside the input, in order and not overlapping.
    let last = 0;
    for (const span of findSecrets(input, { emails: true })) {
      assert.ok(span.start >= last && span.start < span.end && span.end <= input.length, `${span.kind} at ${span.start}-${span.end}`);
      last = span.end;
    }
  });
}
