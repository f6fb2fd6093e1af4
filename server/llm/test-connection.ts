import type { Db } from "../db/client";
import { SecretBoxError } from "../security/secret-box";
import { createLlmClient } from "./client";
import { LlmConfigError } from "./config";
import { getEffectiveLlmConfig, type LlmConfigSource } from "./effective-config";
import { LlmError } from "./errors";
import { isReasoningModel } from "./reasoning";
import type { LlmSlot } from "./slots";
import { processEnv } from "@/server/env";

/**
 * One tiny real call to the endpoint in effect for a slot (the default, or a purpose's), for the
 * admin's "Test connection" button: proves the URL, model and key work (or says what failed)
 * without running a feature. The answer names the source (environment or stored settings) and the
 * slot whose settings applied, so an admin sees which one was used. Never the key: error
 * messages are built from status codes and the provider's body excerpt with the key removed, and
 * scrubbed once more here.
 */
export type ConnectionTestResult =
  | { ok: true; source: LlmConfigSource; slot: LlmSlot; provider: string; model: string; answeredBy: string; latencyMs: number; reply: string }
  | { ok: false; source?: LlmConfigSource; message: string };

export async function testLlmConnection(
  db: Db,
  env: Record<string, string | undefined> = processEnv(),
  slot: LlmSlot = "default",
): Promise<ConnectionTestResult> {
  let effective;
  try {
    effective = await getEffectiveLlmConfig(db, env, slot);
  } catch (error) {
    if (error instanceof SecretBoxError || error instanceof LlmConfigError) return { ok: false, message: error.message };
    throw error;
  }
  if (!effective) return { ok: false, message: "no LLM endpoint is configured" };
  const { config, source } = effective;
  const scrub = (text: string) => (config.apiKey ? text.split(config.apiKey).join("[redacted]") : text);
  const started = Date.now();
  try {
    const client = createLlmClient({ ...config, maxRetries: 0 });
    // Reasoning models spend output tokens thinking before they answer: give them room. 16: the
    // Responses API refuses max_output_tokens below it.
    const response = await client.complete({
      messages: [{ role: "user", content: "Reply with the single word OK." }],
      maxTokens: isReasoningModel(config) ? 256 : 16,
      temperature: 0,
      purpose: "connection-test",
    });
    return {
      ok: true,
      source,
      slot: effective.slot,
      provider: config.provider,
      model: config.model,
      answeredBy: response.model,
      latencyMs: Date.now() - started,
      reply: scrub(response.text).slice(0, 80),
    };
  } catch (error) {
    if (!(error instanceof LlmError)) {
      console.error("LLM connection test failed", scrub(error instanceof Error ? `${error.name}: ${error.message}` : String(error)));
      return { ok: false, source, message: "the call failed unexpectedly; the server log has the details" };
    }
    const excerpt = error.details.bodyExcerpt ? ` — ${error.details.bodyExcerpt.slice(0, 200)}` : "";
    return { ok: false, source, message: scrub(`${error.message}${excerpt}`) };
  }
}
