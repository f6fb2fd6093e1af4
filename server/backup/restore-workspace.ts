import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Db } from "../db/client";
import type { DbEngine } from "../db/engine";
import type { BlobKind } from "../storage/blob-key";
import type { BlobStore } from "../storage/blob-store";
import { loadDatabase } from "./load-database";
import type { MigrationVerdict } from "./migration-verdicts";
import { delegateOf } from "./model-delegate";
import { planArchiveUpgrade } from "./plan-archive-upgrade";
import { readArchive } from "./read-archive";
import { readSchemaModels } from "./schema-models";
import { ArchiveError } from "./tar-reader";

export interface RestoreOptions {
  /** A migrated database (the CLI runs the migrations first). */
  db: Db;
  engine: DbEngine;
  store: BlobStore;
  file: string;
  scratchDir: string;
  /** Replace a workspace that already has rows (otherwise refused). */
  force?: boolean;
  root?: string;
  /** Which migrations an older archive may lack (default: migration-verdicts.ts); tests pass their own. */
  verdicts?: readonly MigrationVerdict[];
}

export interface RestoreSummary {
  tables: { model: string; rows: number }[];
  blobs: number;
  /** Blobs the store did not hold yet (content-addressed: the others were already there). */
  blobsWritten: number;
  /** Additive migrations this workspace has and the archive lacked (empty: the same version). */
  upgradedThrough: string[];
  /** Tables those migrations created, restored empty. */
  emptyTables: string[];
}

/** The target already holds data and the restore was not forced. */
export class WorkspaceNotEmptyError extends Error {
  constructor(counts: string) {
    super(`the workspace is not empty (${counts}); restore into an empty database, or pass --force to replace its contents`);
    this.name = "WorkspaceNotEmptyError";
  }
}

/**
 * Restores an archive written by backupWorkspace: reads and verifies ALL of it first (framing,
 * manifest, every digest; read-archive.ts), checks the schema version — the same, or older by
 * additive migrations only (plan-archive-upgrade.ts) — and that the workspace is empty, then puts the blobs (each re-checked by the store's own sha256) and loads the tables in
 * one transaction that verifies the counts and that the archive holds every blob the restored rows
 * name (load-database.ts). Nothing is written until the whole archive checks out; if loading
 * fails, the blobs this restore added are removed again.
 */
export async function restoreWorkspace(options: RestoreOptions): Promise<RestoreSummary> {
  const { db, store } = options;
  const staging = join(options.scratchDir, `restore-${randomUUID()}`);
  await mkdir(staging, { recursive: true });
  const created: string[] = [];
  try {
    const archive = await readArchive(options.file, staging);
    const { manifest } = archive;
    const models = readSchemaModels(options.root);
    const local = (await db.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_tracefold_migrations" ORDER BY "name"`)).map((r) => r.name);
    const upgrade = planArchiveUpgrade(manifest.migrations, local, models, new Set(archive.tables.keys()), options.verdicts);
    if (!options.force) {
      const counts: string[] = [];
      for (const model of models) {
        const n = await delegateOf(db, model).count();
        if (n > 0) counts.push(`${model.name}: ${n}`);
      }
      if (counts.length > 0) throw new WorkspaceNotEmptyError(counts.join(", "));
    }
    for (const [key, path] of archive.blobs) {
      const put = await store.putFile(path, key.slice(0, key.indexOf("/")) as BlobKind);
      if (put.key !== key) throw new ArchiveError(`blobs/${key}: stored as ${put.key}`);
      if (put.created) created.push(key);
    }
    await loadDatabase(db, options.engine, models, manifest, archive.tables, new Set(archive.blobs.keys()), options.force === true, upgrade.omittable);
    return {
      tables: manifest.tables.map(({ model, rows }) => ({ model, rows })),
      blobs: archive.blobs.size,
      blobsWritten: created.length,
      upgradedThrough: upgrade.missing,
      emptyTables: models.filter((m) => upgrade.emptyTables.has(m.name)).map((m) => m.name),
    };
  } catch (error) {
    for (const key of created) await store.remove(key).catch(() => undefined);
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
