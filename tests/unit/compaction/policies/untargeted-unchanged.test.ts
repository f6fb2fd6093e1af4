import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { findPolicy } from "../../../../lib/compaction/policies/registry";
import { policySample } from "../../../helpers/policy-sample";
import { untargetedViewHashes } from "./untargeted-views";

/**
 * Matched budgets must not change what a policy does at its own settings: without `targetTokens`
 * every policy that existed before target support gives the very result it gave then (the whole
 * PolicyResult, hashed per sample point; pinned by pin-untargeted-views.ts from that code).
 * A deliberate change to a policy's own rules re-pins that policy's entry alone, from the new code
 * (self-gc's planner ordering, issue 16 item 11); every other entry stays as pinned.
 */
const pinned = JSON.parse(readFileSync(resolve(__dirname, "fixtures/untargeted-views.json"), "utf8")) as {
  points: number;
  policies: Record<string, Record<string, string>>;
};

test("without a target, every pre-existing policy's result is unchanged on the real-trace sample", async () => {
  const points = await policySample();
  assert.equal(points.length, pinned.points, "the sample changed: re-pin only from the reference code");
  for (const [id, hashes] of Object.entries(pinned.policies)) {
    const policy = findPolicy(id);
    assert.ok(policy, `policy ${id} is no longer registered`);
    const now = await untargetedViewHashes(policy, points);
    const changed = Object.keys(hashes).filter((key) => now[key] !== hashes[key]);
    assert.deepEqual(changed, [], `${id}: untargeted result changed at ${changed.length} of ${points.length} points`);
  }
});
