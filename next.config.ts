import type { NextConfig } from "next";

/**
 * Next.js configuration for the Tracefold studio.
 *
 * - Native and driver packages stay outside the server bundle and are loaded with Node's `require`:
 *   better-sqlite3 ships a compiled addon, and Prisma's adapters and `pg` resolve optional modules at
 *   run time that bundling would break.
 * - Typed routes are off: links to `/sessions/<id>` are built from data at run time.
 * - TRACEFOLD_NEXT_DIST_DIR / TRACEFOLD_TSCONFIG let the e2e server build into its own directory
 *   (data/.next-e2e), so a `next build` run elsewhere in the tree cannot swap files under it.
 */
const nextConfig: NextConfig = {
  distDir: process.env.TRACEFOLD_NEXT_DIST_DIR || ".next",
  typescript: { tsconfigPath: process.env.TRACEFOLD_TSCONFIG || "tsconfig.json" },
  typedRoutes: false,
  poweredByHeader: false,
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/client",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "@prisma/driver-adapter-utils",
    "prisma",
    "pg",
    "pg-boss",
  ],
};

export default nextConfig;
