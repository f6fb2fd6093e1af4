import Database from "better-sqlite3";
import pg from "pg";
import { sqlitePath } from "../../server/db/engine";

/**
 * Whether another connection holds an open write transaction that has written rows, so a fault
 * test kills a process mid-import instead of after a fixed sleep: on PostgreSQL a backend inside a
 * transaction whose last statement inserted; on SQLite the write lock held across two probes
 * 100 ms apart (heartbeats and single-row writes hold it for well under a millisecond).
 */
export async function writeTransactionOpen(t: { engine: "sqlite" | "postgres"; url: string }): Promise<boolean> {
  if (t.engine === "postgres") {
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND query ILIKE 'INSERT INTO "public"."%'`,
      );
      return (rows[0] as { n: number }).n > 0;
    } finally {
      await client.end();
    }
  }
  const locked = () => {
    const db = new Database(sqlitePath(t.url), { timeout: 0 });
    try {
      db.exec("BEGIN IMMEDIATE");
      db.exec("ROLLBACK");
      return false;
    } catch {
      return true;
    } finally {
      db.close();
    }
  };
  if (!locked()) return false;
  await new Promise((r) => setTimeout(r, 100));
  return locked();
}
