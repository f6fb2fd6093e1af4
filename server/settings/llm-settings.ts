import { z } from "zod";
import type { Db } from "../db/client";
import { DEFAULT_BASE_URLS, LLM_PROVIDERS, LlmConfigSchema, type LlmConfig } from "../llm/config";
import { openSecret, sealSecret, SecretBoxError } from "../security/secret-box";
import { NO_SECRET_KEY_MESSAGE, studioSecretKey } from "../security/secret-key";

/**
 * The LLM endpoint an admin sets on /admin/settings, stored as one JSON row (`llm.endpoint`) of the
 * Setting table. The API key is stored only sealed (AES-256-GCM, server/security/secret-box.ts)
 * and leaves this module in two ways only: decrypted inside `storedLlmConfig` for the server's own
 * client, and as a four-character hint for the settings page. Environment variables win over this
 * row (server/llm/effective-config.ts).
 */
const KEY = "llm.endpoint";
const PURPOSE = "llm.apiKey";

const StoredSchema = z.object({
  provider: z.enum(LLM_PROVIDERS),
  baseUrl: z.string(),
  model: z.string(),
  timeoutMs: z.number().int(),
  maxRetries: z.number().int(),
  sealedApiKey: z.string().optional(),
});
type Stored = z.infer<typeof StoredSchema>;

/** What the settings page may show: everything but the key, and at most its last four characters. */
export interface LlmSettingsView {
  provider: LlmConfig["provider"];
  baseUrl: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  apiKey: { state: "unset" } | { state: "set"; endsWith: string } | { state: "unreadable"; message: string };
}

/** The admin form. An empty apiKey keeps the stored one; `clearApiKey` removes it. */
export const LlmSettingsFormSchema = z
  .object({
    provider: z.enum(LLM_PROVIDERS, { error: "choose openai or anthropic" }),
    baseUrl: z
      .string()
      .trim()
      .max(2_000)
      .default("")
      .refine((v) => v === "" || (/^https?:\/\/\S+$/.test(v) && URL.canParse(v)), "must be an http(s) URL"),
    model: z.string().trim().min(1, "is required").max(200),
    timeoutMs: z.coerce.number({ error: "must be a number of milliseconds" }).int("must be a whole number").min(1_000, "must be at least 1000 ms").max(600_000, "must be at most 600000 ms"),
    maxRetries: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(0).max(8, "must be at most 8"),
    apiKey: z.string().trim().max(1_000, "is too long").default(""),
    clearApiKey: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()).default(false),
  })
  .transform((f) => ({ ...f, baseUrl: f.baseUrl || DEFAULT_BASE_URLS[f.provider] }));
export type LlmSettingsForm = z.infer<typeof LlmSettingsFormSchema>;

export class LlmSettingsError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = "LlmSettingsError";
  }
}

async function readStored(db: Db): Promise<Stored | undefined> {
  const row = await db.setting.findUnique({ where: { key: KEY } });
  if (!row) return undefined;
  try {
    const parsed = StoredSchema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function openKey(sealed: string, env: Record<string, string | undefined>): string {
  const secretKey = studioSecretKey(env);
  if (!secretKey) throw new SecretBoxError("no_secret_key", NO_SECRET_KEY_MESSAGE);
  return openSecret(sealed, secretKey, PURPOSE);
}

/** The settings for the admin page, or undefined when none are stored. Never the key itself. */
export async function getLlmSettingsView(db: Db, env: Record<string, string | undefined> = process.env): Promise<LlmSettingsView | undefined> {
  const stored = await readStored(db);
  if (!stored) return undefined;
  let apiKey: LlmSettingsView["apiKey"] = { state: "unset" };
  if (stored.sealedApiKey) {
    try {
      const key = openKey(stored.sealedApiKey, env);
      apiKey = { state: "set", endsWith: key.length >= 12 ? key.slice(-4) : "" };
    } catch (error) {
      apiKey = { state: "unreadable", message: error instanceof SecretBoxError ? error.message : "the stored key cannot be read" };
    }
  }
  const { sealedApiKey: _sealed, ...rest } = stored;
  return { ...rest, apiKey };
}

/**
 * The stored endpoint as the client's configuration (key decrypted), or undefined when none is
 * stored. Throws SecretBoxError when the key cannot be decrypted: a call without it would fail anyway.
 */
export async function storedLlmConfig(db: Db, env: Record<string, string | undefined> = process.env): Promise<LlmConfig | undefined> {
  const stored = await readStored(db);
  if (!stored) return undefined;
  const apiKey = stored.sealedApiKey ? openKey(stored.sealedApiKey, env) : undefined;
  return LlmConfigSchema.parse({ provider: stored.provider, baseUrl: stored.baseUrl, model: stored.model, timeoutMs: stored.timeoutMs, maxRetries: stored.maxRetries, ...(apiKey ? { apiKey } : {}) });
}

/** Saves the admin's form (the caller checked the admin role); answers what the page may show. */
export async function saveLlmSettings(db: Db, form: LlmSettingsForm, updatedById: string, env: Record<string, string | undefined> = process.env): Promise<LlmSettingsView> {
  const previous = await readStored(db);
  let sealedApiKey = form.clearApiKey ? undefined : previous?.sealedApiKey;
  if (form.apiKey && !form.clearApiKey) {
    const secretKey = studioSecretKey(env);
    if (!secretKey) throw new LlmSettingsError("apiKey", NO_SECRET_KEY_MESSAGE);
    sealedApiKey = sealSecret(form.apiKey, secretKey, PURPOSE);
  }
  if (form.provider === "anthropic" && !sealedApiKey) throw new LlmSettingsError("apiKey", "is required for the anthropic provider");
  const stored: Stored = { provider: form.provider, baseUrl: form.baseUrl, model: form.model, timeoutMs: form.timeoutMs, maxRetries: form.maxRetries, ...(sealedApiKey ? { sealedApiKey } : {}) };
  const value = JSON.stringify(stored);
  await db.setting.upsert({ where: { key: KEY }, create: { key: KEY, value, updatedById }, update: { value, updatedById } });
  return (await getLlmSettingsView(db, env))!;
}

/** Removes the stored endpoint (key included): LLM features are off unless the environment sets one. */
export async function clearLlmSettings(db: Db): Promise<void> {
  await db.setting.deleteMany({ where: { key: KEY } });
}
