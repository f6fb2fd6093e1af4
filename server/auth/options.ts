import bcrypt from "bcryptjs";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { getDb } from "../db/client";
import { clientIpOf } from "./client-ip";
import { isRole } from "./roles";
import { checkSignInThrottle, clearSignInFailures, recordSignInFailure, throttledMessage, throttleLimitsFromEnv } from "./sign-in-throttle";
import { processEnv } from "@/server/env";

/**
 * Compared against when the e-mail has no user, so an unknown account costs the same bcrypt time as
 * a wrong password (the answer and the throttle are the same too: nothing tells them apart).
 */
const NO_USER_HASH = "$2b$10$Zi.A5RUFnJ8SrXpstcxIeeuHTLT10OPv5vZNTK44m2ePWADhkZe7C";

const CredentialsSchema = z.object({ email: z.string().trim().toLowerCase().email(), password: z.string().min(1).max(200) });

/**
 * next-auth configuration: e-mail + password against the User table, JWT sessions carrying the
 * user's id and role. The role is re-read from the database on every request by `getSessionUser`
 * so a demotion takes effect immediately.
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      // A throttled attempt throws: next-auth passes the message to the login form as `error`.
      async authorize(raw, req) {
        const parsed = CredentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        const db = getDb();
        const limits = throttleLimitsFromEnv();
        const attempt = { email: parsed.data.email, ip: clientIpOf(req?.headers ?? {}) };
        const verdict = await checkSignInThrottle(db, attempt, limits);
        if (!verdict.allowed) throw new Error(throttledMessage(verdict.retryAfterMs));
        const user = await db.user.findUnique({ where: { email: parsed.data.email } });
        const matches = await bcrypt.compare(parsed.data.password, user?.passwordHash ?? NO_USER_HASH);
        if (!user || !matches) {
          await recordSignInFailure(db, attempt, limits);
          return null;
        }
        await clearSignInFailures(db, attempt.email);
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) token.uid = user.id;
      return token;
    },
    async session({ session, token }) {
      if (session.user && typeof token.uid === "string") (session.user as { id?: string }).id = token.uid;
      return session;
    },
  },
  secret: processEnv().NEXTAUTH_SECRET,
};

export { isRole };
