import { existsSync } from "node:fs";
import { databaseUrl, engineOf, sqlitePath } from "@/server/db/engine";
import type { LlmClient } from "@/lib/llm/types";

/**
 * The endpoints the studio would use (one per purpose): the TRACEFOLD_LLM_* variables, else the ones
 * an admin stored (read from DATABASE_URL only when that database exists: a command never creates
 * one). Loaded on demand, not at start-up: only commands asked to call a model need the database client.
 */
export async function llmInEffect(): Promise<LlmClient | undefined> {
  const { envConfiguresLlm, getLlmClient } = await import("@/server/llm/effective-config");
  const url = databaseUrl();
  const hasDatabase = engineOf(url) === "postgres" || existsSync(sqlitePath(url));
  return envConfiguresLlm() || hasDatabase ? await getLlmClient() : undefined;
}

/** What to tell a user who asked for `flags` (e.g. `--planner llm`) with no endpoint configured. */
export function noEndpointMessage(command: string, flags: readonly string[]): string {
  return `tracefold ${command}: ${flags.join(" and ")} need${flags.length === 1 ? "s" : ""} a model endpoint and none is configured: set TRACEFOLD_LLM_PROVIDER (openai, openai-responses, anthropic, openai-compatible, azure, amazon-bedrock or google) and TRACEFOLD_LLM_MODEL, plus TRACEFOLD_LLM_BASE_URL and TRACEFOLD_LLM_API_KEY as your endpoint needs, or have an admin store one on the studio's Admin → settings (see docs/configuration.md, LLM endpoints)`;
}
