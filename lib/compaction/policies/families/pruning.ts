import { anthropicClearToolUsesPolicy } from "../pruning/anthropic-clear-tool-uses";
import { discardAllPolicy } from "../pruning/discard-all";
import { genericAgentPolicy } from "../pruning/generic-agent";
import { hybridPolicy } from "../pruning/hybrid";
import { lastNObservationsPolicy } from "../pruning/last-n-observations";
import { offloadWithPreviewPolicy } from "../pruning/offload-with-preview";
import { oldestTurnPolicy } from "../pruning/oldest-turn";
import { openhandsObservationMaskingPolicy } from "../pruning/openhands-observation-masking";
import { toolMaskPrunePolicy } from "../pruning/tool-mask-prune";
import { toolPrunePolicy } from "../pruning/tool-prune";
import type { Policy } from "../types";

/**
 * Rule-based pruning policies, registered in lib/compaction/policies/registry.ts: the four seed 000 baselines
 * in the seed's order, then GenericAgent (seed 002), the harness mirrors (Anthropic context
 * editing, OpenHands observation masking) and the three baselines users compare against (SWE-agent's
 * last-n observations, DeepSeek-V3.2's discard-all reset, Deep Agents' offload with preview). Ids are
 * a public contract.
 */
export const PRUNING_POLICIES: readonly Policy[] = [
  oldestTurnPolicy,
  toolPrunePolicy,
  toolMaskPrunePolicy,
  hybridPolicy,
  genericAgentPolicy,
  anthropicClearToolUsesPolicy,
  openhandsObservationMaskingPolicy,
  lastNObservationsPolicy,
  discardAllPolicy,
  offloadWithPreviewPolicy,
];
