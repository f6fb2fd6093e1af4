import { processEnv } from "@/server/env";

/**
 * Which database engine a DATABASE_URL names. SQLite (`file:…`) is the embedded default;
 * `postgres://` / `postgresql://` selects PostgreSQL for teams.
 */
export type DbEngine = "sqlite" | "postgres";

export const DEFAULT_DATABASE_URL = "file:./data/tracefold.db";

export function databaseUrl(): string {
  return processEnv().DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function engineOf(url: string): DbEngine {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgres";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL); got ${url.split(":")[0]}:…`);
}

/** Path of the SQLite file a `file:` URL points at (relative paths resolve against the cwd). */
export function sqlitePath(url: string): string {
  return url.replace(/^file:/, "").replace(/\?.*$/, "");
}
