import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/options";
import { refuseCrossOrigin } from "@/server/security/same-origin";

/**
 * next-auth v4's sign-in, callback, session and CSRF endpoints, configured in server/auth/options.ts.
 * POSTs (sign-in, sign-out) also pass the studio's Origin check, on top of next-auth's CSRF token.
 */
const handler = NextAuth(authOptions);

export async function POST(request: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  const crossOrigin = refuseCrossOrigin(request);
  if (crossOrigin) return crossOrigin;
  return handler(request, context);
}

export { handler as GET };
