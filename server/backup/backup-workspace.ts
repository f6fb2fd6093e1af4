import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import type { Db } from "../db/client";
import type { DbEngine } from "../db/engine";
import { shaOfKey } from "../storage/blob-key";
import type { BlobStore } from "../storage/blob-store";
import { dumpDatabase } from "./dump-database";
import { blobEntry, MANIFEST_ENTRY, type BackupManifest } from "./manifest";
import { readSchemaModels } from "./schema-models";
import { TarWriter } from "./tar-writer";

export interface BackupOptions {
  db: Db;
  engine: DbEngine;
  store: BlobStore;
  /** The archive to write (`.tar.gz`); written beside as `.partial` and renamed when complete. */
  out: string;
  /** Where table dumps wait before going into the archive (removed afterwards). */
  scratchDir: string;
  /** Repository root holding prisma/schema.prisma (default: the working directory). */
  root?: string;
}

export interface BackupSummary {
  out: string;
  tables: { model: string; rows: number }[];
  blobs: number;
  blobBytes: number;
}

/**
 * Backs a workspace up into one gzipped tar: every table as JSON lines from one consistent read
 * transaction (dump-database.ts), every blob a row references (server/storage/blob-references.ts,
 * the list the unreferenced-blob sweep spares, so the two cannot disagree) streamed from the blob store and
 * checked against its sha256 on the way, then `manifest.json` with the schema version, row counts
 * and digests. Engine- and store-neutral: a SQLite + disk workspace restores onto PostgreSQL + S3.
 * A row naming a blob the store lacks fails the backup (a backup that cannot be restored whole is
 * worse than none).
 */
export async function backupWorkspace(options: BackupOptions): Promise<BackupSummary> {
  const staging = join(options.scratchDir, `backup-${randomUUID()}`);
  const partial = `${options.out}.partial`;
  await mkdir(staging, { recursive: true });
  await mkdir(dirname(options.out), { recursive: true });
  let gzip: ReturnType<typeof createGzip> | undefined;
  try {
    const dump = await dumpDatabase(options.db, options.engine, readSchemaModels(options.root), staging);
    const zipped = (gzip = createGzip({ level: 6 }));
    const file = createWriteStream(partial);
    zipped.pipe(file);
    const failed = new Promise<never>((_, reject) => {
      zipped.on("error", reject);
      file.on("error", reject);
    });
    const write = async () => {
      const tar = new TarWriter(zipped);
      for (const table of dump.tables) await tar.add(table.entry, table.bytes, createReadStream(table.path));
      const blobs: BackupManifest["blobs"] = [];
      for (const key of dump.blobKeys) {
        const { bytes, stream } = await options.store.openRead(key);
        const hash = createHash("sha256");
        await tar.add(blobEntry(key), bytes, hashing(stream, hash));
        if (hash.digest("hex") !== shaOfKey(key)) throw new Error(`blob ${key} in the store does not match its sha256: the store is corrupted`);
        blobs.push({ key, bytes });
      }
      const manifest: BackupManifest = {
        format: "tracefold-backup",
        version: 1,
        createdAt: new Date().toISOString(),
        engine: options.engine,
        migrations: dump.migrations,
        tables: dump.tables.map(({ model, entry, rows, bytes, sha256 }) => ({ model, entry, rows, bytes, sha256 })),
        blobs,
      };
      const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8");
      await tar.add(MANIFEST_ENTRY, manifestBytes.length, manifestBytes);
      await tar.finish();
      zipped.end();
      await once(file, "close");
      return manifest;
    };
    const manifest = await Promise.race([write(), failed]);
    await rename(partial, options.out);
    return {
      out: options.out,
      tables: manifest.tables.map(({ model, rows }) => ({ model, rows })),
      blobs: manifest.blobs.length,
      blobBytes: manifest.blobs.reduce((sum, b) => sum + b.bytes, 0),
    };
  } catch (error) {
    gzip?.destroy();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function* hashing(stream: Readable, hash: ReturnType<typeof createHash>): AsyncIterable<Uint8Array> {
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    yield chunk as Buffer;
  }
}
