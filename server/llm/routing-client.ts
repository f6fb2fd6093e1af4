import type { LlmClient, LlmPurpose } from "../../lib/llm/types";
import type { LlmConfig } from "./config";
import { LlmError } from "./errors";
import { LLM_SLOTS, SLOT_LABELS, slotOf, type LlmSlot } from "./slots";

/**
 * One LlmClient for lib/ that sends each request to the endpoint of its purpose (planner,
 * summarizer, judge, A/B judge; anything else to the default). Slots with the same configuration
 * share one underlying client. A slot without an endpoint (no default, no own) answers every call
 * with an error naming the purpose, so a run that needs it fails saying what to set. `id` is the
 * default's (else the first configured slot's); `idFor` names the model serving a purpose, so
 * planner and judge ids stored with results say which model really answered.
 */
export function createRoutingClient(configs: Partial<Record<LlmSlot, { config: LlmConfig }>>, create: (config: LlmConfig) => LlmClient): LlmClient {
  const byConfig = new Map<string, LlmClient>();
  const clients: Partial<Record<LlmSlot, LlmClient>> = {};
  for (const slot of LLM_SLOTS) {
    const config = configs[slot]?.config;
    if (!config) continue;
    const key = JSON.stringify(config);
    if (!byConfig.has(key)) byConfig.set(key, create(config));
    clients[slot] = byConfig.get(key)!;
  }
  const fallback = clients.default ?? LLM_SLOTS.map((slot) => clients[slot]).find((client) => client !== undefined);
  if (!fallback) throw new Error("createRoutingClient needs at least one configured slot");
  const clientFor = (purpose: LlmPurpose) => clients[slotOf(purpose)];
  return {
    id: fallback.id,
    idFor: (purpose) => clientFor(purpose)?.id ?? "none",
    complete: async (request) => {
      const client = clientFor(request.purpose);
      if (!client)
        throw new LlmError(
          "not_configured",
          `no LLM endpoint for the ${SLOT_LABELS[slotOf(request.purpose)].toLowerCase()}: set it (or the default LLM endpoint) on Admin → settings`,
          { provider: "none", attempts: 0, retryable: false },
        );
      return client.complete(request);
    },
  };
}
