import { POLICIES } from "@/lib/compaction/policies/registry";
import type { PolicyInfo } from "./compaction-api";

/** Every registered policy as plain data (what the picker and `GET /api/policies` show), in registry order. */
export function listPolicyInfo(): PolicyInfo[] {
  return POLICIES.map((p) => ({
    id: p.id,
    family: p.family,
    source: p.source,
    description: p.description,
    params: p.params.map((s) => ({ name: s.name, default: s.default, description: s.description })),
  }));
}
