import type { LlmClient } from "../../lib/llm/types";
import type { Db } from "../db/client";
import { getDb } from "../db/client";
import { storedLlmConfig } from "../settings/llm-settings";
import { createLlmClient } from "./client";
import { readLlmConfig, type LlmConfig } from "./config";

/**
 * The one place the server decides which LLM endpoint to call. The environment wins: when
 * TRACEFOLD_LLM_PROVIDER is set, the TRACEFOLD_LLM_* variables are the whole configuration and the
 * admin's stored settings are ignored (the settings page says so). Otherwise the endpoint an admin
 * stored on /admin/settings is used, its key decrypted here. Neither: LLM features are off.
 */
export type LlmConfigSource = "env" | "settings";

export interface EffectiveLlmConfig {
  source: LlmConfigSource;
  config: LlmConfig;
}

type Env = Record<string, string | undefined>;

/** Whether the environment configures the endpoint (and so overrides the stored settings). */
export function envConfiguresLlm(env: Env = process.env): boolean {
  return Boolean(env.TRACEFOLD_LLM_PROVIDER?.trim());
}

/** What the settings page may say about an environment override: provider and model, never the key. */
export function envLlmSummary(env: Env = process.env): { provider: string; model: string } | null {
  return envConfiguresLlm(env) ? { provider: env.TRACEFOLD_LLM_PROVIDER?.trim() ?? "", model: env.TRACEFOLD_LLM_MODEL?.trim() ?? "" } : null;
}

/** The configuration in effect and where it came from, or undefined when none is configured. */
export async function getEffectiveLlmConfig(db?: Db, env: Env = process.env): Promise<EffectiveLlmConfig | undefined> {
  if (envConfiguresLlm(env)) {
    const config = readLlmConfig(env);
    return config ? { source: "env", config } : undefined;
  }
  // The database is opened only when the environment does not decide (the CLI may have none).
  const config = await storedLlmConfig(db ?? getDb(), env);
  return config ? { source: "settings", config } : undefined;
}

/** The server's LLM client for the configuration in effect, or undefined when LLM features are off. */
export async function getLlmClient(db?: Db, env: Env = process.env): Promise<LlmClient | undefined> {
  const effective = await getEffectiveLlmConfig(db, env);
  return effective ? createLlmClient(effective.config) : undefined;
}

/** For pages deciding whether to offer LLM features: false also when the configuration is broken. */
export async function hasLlmEndpoint(db?: Db, env: Env = process.env): Promise<boolean> {
  try {
    return (await getEffectiveLlmConfig(db, env)) !== undefined;
  } catch {
    return false;
  }
}
