import { POLICIES } from "@/lib/compaction/policies/registry";
import { parseCommandArgs } from "../args";
import { policiesCommand } from "../usage";

/** Lists every policy with its family, source and parameters (`{"policies":[{id,family,source,params}]}`). */
export async function runPolicies(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, policiesCommand);
  const policies = POLICIES.map((p) => ({
    id: p.id,
    family: p.family,
    source: p.source,
    params: Object.fromEntries(p.params.map((spec) => [spec.name, spec.default])),
  }));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ policies })}\n`);
    return 0;
  }
  for (const p of POLICIES) {
    console.log(`${p.id.padEnd(30)} ${p.family.padEnd(9)} ${p.description}`);
    for (const spec of p.params) console.log(`    ${spec.name}=${spec.default}  ${spec.description}`);
  }
  return 0;
}
