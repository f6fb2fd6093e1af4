import type { LlmClient, LlmPurpose } from "../../lib/llm/types";
import type { LlmConfig } from "./config";
import { LLM_SLOTS, slotOf, type LlmSlot } from "./slots";

/**
 * One LlmClient for lib/ that sends each request to the endpoint of its purpose (planner,
 * summarizer, judge, A/B judge; anything else to the default). Slots with the same configuration
 * share one underlying client. `id` is the default's; `idFor` names the model serving a purpose,
 * so planner and judge ids stored with results say which model really answered.
 */
export function createRoutingClient(configs: Record<LlmSlot, { config: LlmConfig }>, create: (config: LlmConfig) => LlmClient): LlmClient {
  const byConfig = new Map<string, LlmClient>();
  const clients = Object.fromEntries(
    LLM_SLOTS.map((slot) => {
      const key = JSON.stringify(configs[slot].config);
      if (!byConfig.has(key)) byConfig.set(key, create(configs[slot].config));
      return [slot, byConfig.get(key)!];
    }),
  ) as Record<LlmSlot, LlmClient>;
  const clientFor = (purpose: LlmPurpose) => clients[slotOf(purpose)];
  return {
    id: clients.default.id,
    idFor: (purpose) => clientFor(purpose).id,
    complete: (request) => clientFor(request.purpose).complete(request),
  };
}
