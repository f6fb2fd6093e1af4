import { z } from "zod";
import type { Db } from "../db/client";
import { DEFAULT_BASE_URLS, LLM_PROVIDERS, LlmConfigSchema, providerNeedsKey, REASONING_MODES, type LlmConfig } from "./config";
import { LLM_SLOTS, type LlmSlot } from "./slots";
import { openSecret, sealSecret, SecretBoxError } from "../security/secret-box";
import { NO_SECRET_KEY_MESSAGE, studioSecretKey } from "../security/secret-key";
import { processEnv } from "@/server/env";

/**
 * The LLM endpoints an admin sets on /admin/settings, each stored as one JSON row of the Setting
 * table: `llm.endpoint` (the default) and `llm.endpoint.<purpose>` for a purpose that uses another
 * endpoint or model (server/llm/slots.ts). Each API key is stored only sealed (AES-256-GCM,
 * server/security/secret-box.ts, bound to its slot) and leaves this module in two ways only:
 * decrypted inside `storedLlmConfig` for the server's own client, and as a four-character hint for
 * the settings page. Environment variables win over these rows (server/llm/effective-config.ts).
 */
const rowKey = (slot: LlmSlot) => (slot === "default" ? "llm.endpoint" : `llm.endpoint.${slot}`);
const sealPurpose = (slot: LlmSlot) => (slot === "default" ? "llm.apiKey" : `llm.apiKey.${slot}`);

const StoredSchema = z.object({
  provider: z.enum(LLM_PROVIDERS),
  baseUrl: z.string(),
  model: z.string(),
  timeoutMs: z.number().int(),
  maxRetries: z.number().int(),
  reasoning: z.enum(REASONING_MODES).optional(),
  sealedApiKey: z.string().optional(),
  priceInput: z.number().optional(),
  priceOutput: z.number().optional(),
  priceCachedInput: z.number().optional(),
  /** Counts the saves of this row (1 = first), so a "Saved" status names the save it reports. */
  revision: z.number().int().positive().optional(),
});
type Stored = z.infer<typeof StoredSchema>;

/** What the settings page may show: everything but the key, and at most its last four characters. */
export interface LlmSettingsView {
  provider: LlmConfig["provider"];
  baseUrl: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  reasoning?: LlmConfig["reasoning"];
  /** USD per million tokens; unset: calls are not priced. */
  priceInput?: number;
  priceOutput?: number;
  priceCachedInput?: number;
  /** Saves of this endpoint so far (0 for a row stored before revisions were counted). */
  revision: number;
  apiKey: { state: "unset" } | { state: "set"; endsWith: string } | { state: "unreadable"; message: string };
}

/** An optional price field: empty means unset. */
const optionalPrice = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
  z.coerce
    .number({ error: "must be a price in USD per million tokens" })
    .nonnegative("must be a price in USD per million tokens")
    .max(10_000, "must be at most 10000")
    .optional(),
);

/** The admin form. An empty apiKey keeps the stored one; `clearApiKey` removes it. Prices: USD per million tokens. */
export const LlmSettingsFormSchema = z
  .object({
    slot: z.enum(LLM_SLOTS, { error: "unknown endpoint slot" }).default("default"),
    provider: z.enum(LLM_PROVIDERS, { error: `choose one of ${LLM_PROVIDERS.join(", ")}` }),
    baseUrl: z
      .string()
      .trim()
      .max(2_000)
      .default("")
      .refine((v) => v === "" || (/^https?:\/\/\S+$/.test(v) && URL.canParse(v)), "must be an http(s) URL"),
    model: z.string().trim().min(1, "is required").max(200),
    timeoutMs: z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int("must be a whole number")
      .min(1_000, "must be at least 1000 ms")
      .max(600_000, "must be at most 600000 ms"),
    maxRetries: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(0).max(8, "must be at most 8"),
    reasoning: z.enum(REASONING_MODES, { error: "must be auto, on or off" }).default("auto"),
    priceInput: optionalPrice,
    priceOutput: optionalPrice,
    priceCachedInput: optionalPrice,
    apiKey: z.string().trim().max(1_000, "is too long").default(""),
    clearApiKey: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()).default(false),
  })
  .transform((f) => ({ ...f, baseUrl: f.baseUrl || DEFAULT_BASE_URLS[f.provider] }));
export type LlmSettingsForm = z.infer<typeof LlmSettingsFormSchema>;

export class LlmSettingsError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "LlmSettingsError";
  }
}

/** The prices that are set, and only those (an unset price is absent, never 0). */
function prices(from: { priceInput?: number | undefined; priceOutput?: number | undefined; priceCachedInput?: number | undefined }) {
  return {
    ...(from.priceInput !== undefined ? { priceInput: from.priceInput } : {}),
    ...(from.priceOutput !== undefined ? { priceOutput: from.priceOutput } : {}),
    ...(from.priceCachedInput !== undefined ? { priceCachedInput: from.priceCachedInput } : {}),
  };
}

async function readStored(db: Db, slot: LlmSlot): Promise<Stored | undefined> {
  const row = await db.setting.findUnique({ where: { key: rowKey(slot) } });
  if (!row) return undefined;
  try {
    const parsed = StoredSchema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function openKey(sealed: string, env: Record<string, string | undefined>, slot: LlmSlot): string {
  const secretKey = studioSecretKey(env);
  if (!secretKey) throw new SecretBoxError("no_secret_key", NO_SECRET_KEY_MESSAGE);
  return openSecret(sealed, secretKey, sealPurpose(slot));
}

/** The settings for the admin page, or undefined when none are stored. Never the key itself. */
export async function getLlmSettingsView(
  db: Db,
  env: Record<string, string | undefined> = processEnv(),
  slot: LlmSlot = "default",
): Promise<LlmSettingsView | undefined> {
  const stored = await readStored(db, slot);
  if (!stored) return undefined;
  let apiKey: LlmSettingsView["apiKey"] = { state: "unset" };
  if (stored.sealedApiKey) {
    try {
      const key = openKey(stored.sealedApiKey, env, slot);
      apiKey = { state: "set", endsWith: key.length >= 12 ? key.slice(-4) : "" };
    } catch (error) {
      apiKey = { state: "unreadable", message: error instanceof SecretBoxError ? error.message : "the stored key cannot be read" };
    }
  }
  const { sealedApiKey: _sealed, revision, ...rest } = stored;
  return { ...rest, revision: revision ?? 0, apiKey };
}

/**
 * The stored endpoint as the client's configuration (key decrypted), or undefined when none is
 * stored. Throws SecretBoxError when the key cannot be decrypted: a call without it would fail anyway.
 */
export async function storedLlmConfig(
  db: Db,
  env: Record<string, string | undefined> = processEnv(),
  slot: LlmSlot = "default",
): Promise<LlmConfig | undefined> {
  const stored = await readStored(db, slot);
  if (!stored) return undefined;
  const apiKey = stored.sealedApiKey ? openKey(stored.sealedApiKey, env, slot) : undefined;
  return LlmConfigSchema.parse({
    provider: stored.provider,
    baseUrl: stored.baseUrl,
    model: stored.model,
    timeoutMs: stored.timeoutMs,
    maxRetries: stored.maxRetries,
    reasoning: stored.reasoning ?? "auto",
    ...prices(stored),
    ...(apiKey ? { apiKey } : {}),
  });
}

/** Saves the admin's form (the caller checked the admin role); answers what the page may show. */
export async function saveLlmSettings(
  db: Db,
  form: LlmSettingsForm,
  updatedById: string,
  env: Record<string, string | undefined> = processEnv(),
): Promise<LlmSettingsView> {
  const { slot } = form;
  const previous = await readStored(db, slot);
  let sealedApiKey = form.clearApiKey ? undefined : previous?.sealedApiKey;
  if (form.apiKey && !form.clearApiKey) {
    const secretKey = studioSecretKey(env);
    if (!secretKey) throw new LlmSettingsError("apiKey", NO_SECRET_KEY_MESSAGE);
    sealedApiKey = sealSecret(form.apiKey, secretKey, sealPurpose(slot));
  }
  if (providerNeedsKey(form.provider) && !sealedApiKey) throw new LlmSettingsError("apiKey", `is required for the ${form.provider} provider`);
  const stored: Stored = {
    provider: form.provider,
    baseUrl: form.baseUrl,
    model: form.model,
    timeoutMs: form.timeoutMs,
    maxRetries: form.maxRetries,
    ...(form.reasoning !== "auto" ? { reasoning: form.reasoning } : {}),
    ...prices(form),
    ...(sealedApiKey ? { sealedApiKey } : {}),
    revision: (previous?.revision ?? 0) + 1,
  };
  const value = JSON.stringify(stored);
  const key = rowKey(slot);
  await db.setting.upsert({ where: { key }, create: { key, value, updatedById }, update: { value, updatedById } });
  return (await getLlmSettingsView(db, env, slot))!;
}

/**
 * Removes a stored endpoint (key included). The default: LLM features are off unless the
 * environment sets one; a purpose: it uses the default endpoint again.
 */
export async function clearLlmSettings(db: Db, slot: LlmSlot = "default"): Promise<void> {
  await db.setting.deleteMany({ where: { key: rowKey(slot) } });
}
