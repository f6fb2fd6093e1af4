import { PRUNING_POLICIES } from "./families/pruning";
import { SELF_GC_POLICIES } from "./families/self-gc";
import { SUMMARY_POLICIES } from "./families/summary";
import { nonePolicy } from "./none";
import type { Policy } from "./types";

/**
 * Every policy Tracefold replays, in the order the studio lists them. Ids are a public contract.
 * Each family file lists its own policies; nothing else needs to know the list.
 */
export const POLICIES: readonly Policy[] = [nonePolicy, ...PRUNING_POLICIES, ...SUMMARY_POLICIES, ...SELF_GC_POLICIES];

export function findPolicy(id: string): Policy | undefined {
  return POLICIES.find((p) => p.id === id);
}
