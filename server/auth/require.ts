import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { readBearer } from "../../lib/ingest/keys/api-key";
import { keyPrincipal, type ApiPrincipal } from "./key-principal";
import { getSessionUser } from "./current-user";
import { hasRole, type Role, type SessionUser } from "./roles";

/**
 * For pages and server actions: the signed-in user with at least `role`. Anonymous visitors are
 * sent to /login; signed-in users without the role get a 404 (we do not reveal what exists).
 */
export async function requireUser(role: Role = "viewer"): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect("/login");
  if (!hasRole(user.role, role)) notFound();
  return user;
}

/**
 * For route handlers: the user, or a 401/403/429 JSON response to return as is. A request with
 * `Authorization: Bearer <key>` is authenticated by that project API key alone (cookies are then
 * ignored): a `read` key may call what a viewer may, an `ingest` key only routes that pass
 * `{ ingest: true }` (see lib/ingest/keys/api-key.ts `scopeAllows`).
 */
export async function requireApiUser(role: Role = "viewer", route: { ingest?: boolean } = {}): Promise<ApiPrincipal | Response> {
  const bearer = readBearer((await headers()).get("authorization"));
  if (bearer.kind !== "none") return keyPrincipal(bearer, role, route);
  const user = await getSessionUser();
  if (!user) return Response.json({ ok: false, code: "unauthenticated", message: "sign in first" }, { status: 401 });
  if (!hasRole(user.role, role)) {
    return Response.json({ ok: false, code: "forbidden", message: `this needs the ${role} role` }, { status: 403 });
  }
  return user;
}
