import type { LlmClient } from "../../lib/llm/types";
import type { Db } from "../db/client";
import { getDb } from "../db/client";
import { storedLlmConfig } from "./stored-settings";
import { createLlmClient } from "./client";
import { readLlmConfig, type LlmConfig } from "./config";
import { createRoutingClient } from "./routing-client";
import { envPrefix, LLM_SLOTS, type LlmSlot, type PurposeSlot } from "./slots";
import { processEnv } from "@/server/env";

/**
 * The one place the server decides which LLM endpoint serves which purpose. The environment wins:
 * when TRACEFOLD_LLM_PROVIDER (or any TRACEFOLD_LLM_<PURPOSE>_PROVIDER) is set, the TRACEFOLD_LLM_*
 * variables are the whole configuration and the admin's stored settings are ignored (the settings
 * page says so). A purpose then uses TRACEFOLD_LLM_<PURPOSE>_PROVIDER… as a whole endpoint when
 * set, or the default endpoint with TRACEFOLD_LLM_<PURPOSE>_MODEL when only the model is set, or the
 * default. Otherwise the endpoints an admin stored on /admin/settings are used (a purpose's row,
 * else the default row), keys decrypted here. A purpose with an endpoint of its own works without a
 * default endpoint (an Azure judge and an Anthropic planner need no third endpoint); a purpose with
 * neither has no endpoint, and its calls fail saying so. No endpoint at all: LLM features are off.
 */
export type LlmConfigSource = "env" | "settings";

export interface EffectiveLlmConfig {
  source: LlmConfigSource;
  config: LlmConfig;
  /** The slot whose settings apply (a purpose without its own endpoint says "default"). */
  slot: LlmSlot;
}

type Env = Record<string, string | undefined>;

/** Whether the environment configures an endpoint, the default's or a purpose's (and so overrides the stored settings). */
export function envConfiguresLlm(env: Env = processEnv()): boolean {
  return LLM_SLOTS.some((slot) => Boolean(env[`${envPrefix(slot)}PROVIDER`]?.trim()));
}

/** What the settings page may say about an environment override: the default's provider and model (empty when only purposes are set), never the key. */
export function envLlmSummary(env: Env = processEnv()): { provider: string; model: string } | null {
  return envConfiguresLlm(env) ? { provider: env.TRACEFOLD_LLM_PROVIDER?.trim() ?? "", model: env.TRACEFOLD_LLM_MODEL?.trim() ?? "" } : null;
}

/** A purpose's endpoint from the environment, given the default one (if any). */
function envPurposeConfig(slot: PurposeSlot, base: LlmConfig | undefined, env: Env): EffectiveLlmConfig | undefined {
  const prefix = envPrefix(slot);
  const own = readLlmConfig(env, prefix);
  if (own) return { source: "env", config: own, slot };
  if (!base) return undefined;
  const model = env[`${prefix}MODEL`]?.trim();
  return model ? { source: "env", config: { ...base, model }, slot } : { source: "env", config: base, slot: "default" };
}

/** The configuration in effect for a slot and where it came from, or undefined when none is configured. */
export async function getEffectiveLlmConfig(db?: Db, env: Env = processEnv(), slot: LlmSlot = "default"): Promise<EffectiveLlmConfig | undefined> {
  if (envConfiguresLlm(env)) {
    const config = readLlmConfig(env);
    if (slot === "default") return config ? { source: "env", config, slot } : undefined;
    return envPurposeConfig(slot, config, env);
  }
  // The database is opened only when the environment does not decide (the CLI may have none).
  const database = db ?? getDb();
  if (slot === "default") {
    const base = await storedLlmConfig(database, env);
    return base ? { source: "settings", config: base, slot } : undefined;
  }
  const own = await storedLlmConfig(database, env, slot);
  if (own) return { source: "settings", config: own, slot };
  const base = await storedLlmConfig(database, env);
  return base ? { source: "settings", config: base, slot: "default" } : undefined;
}

/** Every slot's configuration in effect (a slot with none is absent), or undefined when no slot has one. */
export async function getEffectiveLlmConfigs(db?: Db, env: Env = processEnv()): Promise<Partial<Record<LlmSlot, EffectiveLlmConfig>> | undefined> {
  const entries = await Promise.all(LLM_SLOTS.map(async (slot) => [slot, await getEffectiveLlmConfig(db, env, slot)] as const));
  const configured = entries.filter((entry): entry is readonly [LlmSlot, EffectiveLlmConfig] => entry[1] !== undefined);
  return configured.length > 0 ? (Object.fromEntries(configured) as Partial<Record<LlmSlot, EffectiveLlmConfig>>) : undefined;
}

/**
 * The server's LLM client: each request goes to its purpose's endpoint (routing-client.ts), or
 * undefined when LLM features are off.
 */
export async function getLlmClient(db?: Db, env: Env = processEnv()): Promise<LlmClient | undefined> {
  const configs = await getEffectiveLlmConfigs(db, env);
  return configs ? createRoutingClient(configs, createLlmClient) : undefined;
}

/**
 * For pages deciding whether to offer LLM features: whether `slot` has an endpoint (its own or the
 * default's), or without a slot whether any endpoint is set. False also when the configuration is broken.
 */
export async function hasLlmEndpoint(db?: Db, env: Env = processEnv(), slot?: LlmSlot): Promise<boolean> {
  try {
    return slot ? (await getEffectiveLlmConfig(db, env, slot)) !== undefined : (await getEffectiveLlmConfigs(db, env)) !== undefined;
  } catch {
    return false;
  }
}
