import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDb, type Db } from "../../server/db/client";
import { migrate } from "../../server/db/migrate";
import { localBlobStore, type BlobStore } from "../../server/storage/blob-store";

/** The PostgreSQL server tests create their throwaway databases on (trust auth, local only). */
export const TEST_PG_ADMIN_URL = process.env.TRACEFOLD_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export interface TestDb {
  engine: "sqlite" | "postgres";
  url: string;
  db: Db;
  store: BlobStore;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: a temp SQLite file, or a new PostgreSQL database
 * named `tracefold_test_*` that is dropped on close. Refuses anything that is not a local test
 * database, so a test can never touch real data.
 */
export async function createTestDb(engine: "sqlite" | "postgres"): Promise<TestDb> {
  const dataDir = mkdtempSync(join(tmpdir(), "tracefold-test-"));
  const store = localBlobStore(join(dataDir, "blobs"));
  if (engine === "sqlite") {
    const url = `file:${join(dataDir, "test.db")}`;
    await migrate(url);
    const db = createDb(url);
    return {
      engine,
      url,
      db,
      store,
      dataDir,
      close: async () => {
        await db.$disconnect();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const admin = new URL(TEST_PG_ADMIN_URL);
  if (!["127.0.0.1", "localhost", "::1"].includes(admin.hostname)) throw new Error(`refusing non-local test database ${admin.hostname}`);
  const name = `tracefold_test_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const db = createDb(url.toString());
  return {
    engine,
    url: url.toString(),
    db,
    store,
    dataDir,
    close: async () => {
      await db.$disconnect();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Both engines, for `for (const engine of ENGINES) describe(engine, …)`. */
export const ENGINES = ["sqlite", "postgres"] as const;
