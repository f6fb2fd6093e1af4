import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { processEnv } from "@/server/env";

/**
 * Sends visitors without a valid next-auth JWT cookie to /login, remembering where they were going.
 *
 * This is a convenience, not the access check: every page, server action and route handler calls
 * requireUser()/requireApiUser() itself (roles are read from the database there). API routes and
 * the OTLP endpoint /v1/traces are excluded from the matcher on purpose — they answer 401 JSON
 * instead of a redirect, and proxy would otherwise buffer large bodies in memory
 * (proxyClientMaxBodySize).
 */
export async function proxy(request: NextRequest) {
  const secret = processEnv().NEXTAUTH_SECRET;
  // Without a secret (a bare `next dev`) the cookie cannot be verified here; the pages' own
  // requireUser() still sends anonymous visitors to /login.
  if (!secret) return NextResponse.next();
  const token = await getToken({ req: request, secret });
  if (token) return NextResponse.next();
  const login = new URL("/login", request.url);
  const target = request.nextUrl.pathname + request.nextUrl.search;
  if (target !== "/") login.searchParams.set("callbackUrl", target);
  return NextResponse.redirect(login);
}

export const config = {
  matcher: ["/((?!api/|v1/traces|_next/static|_next/image|favicon.ico|login|.*\\.[a-zA-Z0-9]+$).*)"],
};
