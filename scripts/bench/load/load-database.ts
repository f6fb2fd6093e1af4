import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrate } from "../../../server/db/migrate";

/** Where the bench creates its throwaway database (trust auth on the local server). */
export const LOAD_PG_ADMIN_URL = process.env.LOAD_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export interface LoadDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated PostgreSQL database `tracefold_load_<random>` for one bench run. Anything that is
 * not a postgresql:// URL on a loopback host is refused before a connection is opened, so the bench
 * can never write into (or drop) a real database. `drop()` forces other sessions off first (the
 * studio's pool may still be closing) and is safe to call twice.
 */
export async function createLoadDatabase(adminUrl = LOAD_PG_ADMIN_URL): Promise<LoadDatabase> {
  const admin = assertLoopbackPostgres(adminUrl);
  const name = `tracefold_load_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  try {
    await migrate(url.toString());
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, url: url.toString(), drop };
}

/** Throws unless `url` is postgresql:// on 127.0.0.1, localhost or ::1. */
export function assertLoopbackPostgres(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("bench:load: LOAD_PG_ADMIN_URL is not a URL");
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) throw new Error(`bench:load: refusing ${parsed.protocol} URL; a postgresql:// URL on loopback is required`);
  if (!LOOPBACK.has(parsed.hostname)) throw new Error(`bench:load: refusing non-loopback database host ${parsed.hostname}`);
  return parsed;
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
