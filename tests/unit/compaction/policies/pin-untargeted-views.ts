/**
 * Writes fixtures/untargeted-views.json: run once with the code whose untargeted behaviour is the
 * reference (`npx tsx tests/unit/compaction/policies/pin-untargeted-views.ts`). The test that reads it is
 * untargeted-unchanged.test.ts.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { POLICIES } from "../../../../lib/compaction/policies/registry";
import { policySample } from "../../../helpers/policy-sample";
import { untargetedViewHashes } from "./untargeted-views";

async function main(): Promise<void> {
  const points = await policySample();
  const pinned: Record<string, Record<string, string>> = {};
  for (const policy of POLICIES) pinned[policy.id] = await untargetedViewHashes(policy, points);
  const file = resolve(__dirname, "fixtures/untargeted-views.json");
  writeFileSync(file, `${JSON.stringify({ points: points.length, policies: pinned }, null, 1)}\n`);
  console.log(`pinned ${Object.keys(pinned).length} policies × ${points.length} points → ${file}`);
}

void main();
