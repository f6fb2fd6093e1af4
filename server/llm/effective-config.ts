import type { LlmClient } from "../../lib/llm/types";
import type { Db } from "../db/client";
import { getDb } from "../db/client";
import { storedLlmConfig } from "../settings/llm-settings";
import { createLlmClient } from "./client";
import { readLlmConfig, type LlmConfig } from "./config";
import { createRoutingClient } from "./routing-client";
import { envPrefix, PURPOSE_SLOTS, type LlmSlot, type PurposeSlot } from "./slots";
import { processEnv } from "@/server/env";

/**
 * The one place the server decides which LLM endpoint serves which purpose. The environment wins:
 * when TRACEFOLD_LLM_PROVIDER is set, the TRACEFOLD_LLM_* variables are the whole configuration and
 * the admin's stored settings are ignored (the settings page says so). A purpose then uses
 * TRACEFOLD_LLM_<PURPOSE>_PROVIDER… as a whole endpoint when set, or the default endpoint with
 * TRACEFOLD_LLM_<PURPOSE>_MODEL when only the model is set, or the default. Otherwise the
 * endpoints an admin stored on /admin/settings are used (a purpose's row, else the default row),
 * keys decrypted here. Neither: LLM features are off.
 */
export type LlmConfigSource = "env" | "settings";

export interface EffectiveLlmConfig {
  source: LlmConfigSource;
  config: LlmConfig;
  /** The slot whose settings apply (a purpose without its own endpoint says "default"). */
  slot: LlmSlot;
}

type Env = Record<string, string | undefined>;

/** Whether the environment configures the endpoint (and so overrides the stored settings). */
export function envConfiguresLlm(env: Env = processEnv()): boolean {
  return Boolean(env.TRACEFOLD_LLM_PROVIDER?.trim());
}

/** What the settings page may say about an environment override: provider and model, never the key. */
export function envLlmSummary(env: Env = processEnv()): { provider: string; model: string } | null {
  return envConfiguresLlm(env) ? { provider: env.TRACEFOLD_LLM_PROVIDER?.trim() ?? "", model: env.TRACEFOLD_LLM_MODEL?.trim() ?? "" } : null;
}

/** A purpose's endpoint from the environment, given the default one. */
function envPurposeConfig(slot: PurposeSlot, base: LlmConfig, env: Env): EffectiveLlmConfig {
  const prefix = envPrefix(slot);
  const own = readLlmConfig(env, prefix);
  if (own) return { source: "env", config: own, slot };
  const model = env[`${prefix}MODEL`]?.trim();
  return model ? { source: "env", config: { ...base, model }, slot } : { source: "env", config: base, slot: "default" };
}

/** The configuration in effect for a slot and where it came from, or undefined when none is configured. */
export async function getEffectiveLlmConfig(db?: Db, env: Env = processEnv(), slot: LlmSlot = "default"): Promise<EffectiveLlmConfig | undefined> {
  if (envConfiguresLlm(env)) {
    const config = readLlmConfig(env);
    if (!config) return undefined;
    return slot === "default" ? { source: "env", config, slot } : envPurposeConfig(slot, config, env);
  }
  // The database is opened only when the environment does not decide (the CLI may have none).
  const database = db ?? getDb();
  const base = await storedLlmConfig(database, env);
  if (!base) return undefined;
  if (slot === "default") return { source: "settings", config: base, slot };
  const own = await storedLlmConfig(database, env, slot);
  return own ? { source: "settings", config: own, slot } : { source: "settings", config: base, slot: "default" };
}

/** Every purpose's configuration in effect, or undefined when LLM features are off. */
export async function getEffectiveLlmConfigs(db?: Db, env: Env = processEnv()): Promise<Record<LlmSlot, EffectiveLlmConfig> | undefined> {
  const base = await getEffectiveLlmConfig(db, env);
  if (!base) return undefined;
  const entries = await Promise.all(PURPOSE_SLOTS.map(async (slot) => [slot, (await getEffectiveLlmConfig(db, env, slot))!] as const));
  return { default: base, ...Object.fromEntries(entries) } as Record<LlmSlot, EffectiveLlmConfig>;
}

/**
 * The server's LLM client: each request goes to its purpose's endpoint (routing-client.ts), or
 * undefined when LLM features are off.
 */
export async function getLlmClient(db?: Db, env: Env = processEnv()): Promise<LlmClient | undefined> {
  const configs = await getEffectiveLlmConfigs(db, env);
  return configs ? createRoutingClient(configs, createLlmClient) : undefined;
}

/** For pages deciding whether to offer LLM features: false also when the configuration is broken. */
export async function hasLlmEndpoint(db?: Db, env: Env = processEnv()): Promise<boolean> {
  try {
    return (await getEffectiveLlmConfig(db, env)) !== undefined;
  } catch {
    return false;
  }
}
