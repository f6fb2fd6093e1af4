import { selfGcPolicy } from "../self-gc/policy";
import type { Policy } from "../types";

/** Policies of this family, registered in lib/compaction/policies/registry.ts (seed 000's Self-GC). */
export const SELF_GC_POLICIES: readonly Policy[] = [selfGcPolicy];
