import { readBearer } from "../../lib/ingest/keys/api-key";
import { processEnv } from "@/server/env";

/**
 * CSRF protection for route handlers that change something (POST, PUT, PATCH, DELETE under
 * app/api). Server actions have Next's own Origin check; route handlers call `refuseCrossOrigin`
 * first, before authentication, so a page on another site can never use a signed-in user's cookies
 * to upload, compact or sign in.
 *
 * A request is accepted when its Origin header — or, when a browser sent none, the origin of its
 * Referer — is one of the studio's own origins: NEXTAUTH_URL's, the one the Host header (or a
 * proxy's X-Forwarded-Host) names, and any listed in TRACEFOLD_ALLOWED_ORIGINS (comma-separated,
 * e.g. `https://studio.example.com,https://tracefold.internal:8443`). Requests with neither header
 * are refused too: every browser sends Origin on these methods, so only scripts omit it, and
 * scripts can send it (the e2e specs and the load bench do). `Origin: null` (sandboxed frames,
 * privacy redirects) is refused.
 */
export const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

type Env = Record<string, string | undefined>;

/** Normalises an origin or URL to `scheme://host[:port]`, or undefined when it is not an http(s) URL. */
export function originOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Every origin this studio answers as, for this request. */
export function allowedOrigins(headers: Headers, env: Env = processEnv()): Set<string> {
  const allowed = new Set<string>();
  const add = (origin: string | undefined) => origin && allowed.add(origin);
  add(originOf(env.NEXTAUTH_URL));
  for (const entry of (env.TRACEFOLD_ALLOWED_ORIGINS ?? "").split(",")) add(originOf(entry));
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host")?.trim();
  if (host) {
    const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
    for (const scheme of proto ? [proto] : ["http", "https"]) add(originOf(`${scheme}://${host}`));
  }
  return allowed;
}

export type OriginVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Whether a request's Origin (or Referer) is the studio's own. Pure: headers and env in. A request
 * with an `Authorization: Bearer` header needs no such check: it is authenticated by its API key
 * alone (requireApiUser never falls back to cookies for it), and a page on another site cannot make
 * a browser add that header without a CORS preflight this studio never grants.
 */
export function checkSameOrigin(method: string, headers: Headers, env: Env = processEnv()): OriginVerdict {
  if (!MUTATING_METHODS.has(method.toUpperCase())) return { ok: true };
  if (readBearer(headers.get("authorization")).kind !== "none") return { ok: true };
  const origin = headers.get("origin");
  const claimed = origin !== null ? originOf(origin) : originOf(headers.get("referer"));
  if (origin === null && headers.get("referer") === null) return { ok: false, reason: "the request has no Origin or Referer header" };
  if (claimed === undefined) return { ok: false, reason: "the request's Origin is not a web origin" };
  if (!allowedOrigins(headers, env).has(claimed))
    return { ok: false, reason: `requests from ${claimed} are not accepted (add it to TRACEFOLD_ALLOWED_ORIGINS if it is this studio)` };
  return { ok: true };
}

/** For mutating route handlers: a 403 JSON response to return as is, or null to carry on. */
export function refuseCrossOrigin(request: Request, env: Env = processEnv()): Response | null {
  const verdict = checkSameOrigin(request.method, request.headers, env);
  if (verdict.ok) return null;
  return Response.json({ ok: false, code: "cross_origin", message: `refused: ${verdict.reason}` }, { status: 403 });
}
