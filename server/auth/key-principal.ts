import { scopeAllows, type BearerReading, type KeyScope } from "../../lib/ingest/keys/api-key";
import { getDb } from "../db/client";
import { authenticateKey, DEFAULT_KEY_RATE_LIMIT } from "../ingest/keys/authenticate-key";
import type { Role, SessionUser } from "./roles";
import { processEnv } from "@/server/env";

/**
 * Who calls an API route: a signed-in user, or a project API key acting with its scope's rights. A
 * key's `id` is `api-key:<id>` (never a user id); `apiKey.createdById` is the admin who made it,
 * when known, for records that name a user (an upload's uploader).
 */
export type ApiPrincipal = SessionUser & { apiKey?: { id: string; name: string; scope: KeyScope; createdById: string | null } };

/** Requests per key per minute (TRACEFOLD_KEY_RATE_LIMIT; default 600). */
export function keyRateLimit(): number {
  const value = Number(processEnv().TRACEFOLD_KEY_RATE_LIMIT);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_KEY_RATE_LIMIT;
}

/** The principal for a bearer request, or the 401/403/429 answer. */
export async function keyPrincipal(
  bearer: Exclude<BearerReading, { kind: "none" }>,
  role: Role,
  route: { ingest?: boolean },
): Promise<ApiPrincipal | Response> {
  if (bearer.kind === "malformed") return refuse(401, "invalid_key", "the Authorization header does not hold a Tracefold API key (Bearer tfk_…)");
  const auth = await authenticateKey(getDb(), bearer.key, { limit: keyRateLimit() });
  if (!auth.ok) {
    if (auth.code === "rate_limited") return refuse(429, auth.code, auth.message, { "retry-after": String(auth.retryAfterSeconds) });
    return refuse(401, auth.code, auth.message);
  }
  const { key } = auth;
  if (!scopeAllows(key.scope, { role, ...route })) return refuse(403, "forbidden", `an API key with the ${key.scope} scope cannot call this route`);
  return {
    id: `api-key:${key.id}`,
    email: `api-key:${key.name}`,
    name: `API key ${key.name}`,
    role: key.scope === "read" ? "viewer" : "reviewer",
    apiKey: key,
  };
}

function refuse(status: number, code: string, message: string, headers?: Record<string, string>): Response {
  return Response.json({ ok: false, code, message }, { status, ...(headers ? { headers } : {}) });
}
