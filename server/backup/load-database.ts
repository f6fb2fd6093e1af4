import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Db } from "../db/client";
import type { DbEngine } from "../db/engine";
import { referencedBlobKeys } from "../storage/blob-references";
import type { BackupManifest } from "./manifest";
import { delegateOf } from "./model-delegate";
import { decodeRow } from "./row-codec";
import type { SchemaModel } from "./schema-models";
import { ArchiveError } from "./tar-reader";

const BATCH = 500;
const LOAD_TIMEOUT_MS = 6 * 60 * 60_000;

/**
 * Inserts every table's rows in ONE transaction, parents before children, then checks each
 * table's count against the manifest and that every blob the restored rows name (the same
 * referencedBlobKeys a backup archives) is among `blobKeys`, the archive's blobs, before
 * committing — a bad line, a count that does not add up or a missing blob rolls everything back.
 * `replace` first deletes every row (children first): a forced restore. `omittable` names, per
 * model, the columns an older archive's rows may lack (left to their default or null).
 * On PostgreSQL, autoincrement sequences are moved past the restored ids.
 */
export async function loadDatabase(
  db: Db,
  engine: DbEngine,
  models: SchemaModel[],
  manifest: BackupManifest,
  tables: Map<string, string>,
  blobKeys: ReadonlySet<string>,
  replace: boolean,
  omittable: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Promise<void> {
  await db.$transaction(
    async (tx) => {
      if (replace) for (const model of [...models].reverse()) await delegateOf(tx, model).deleteMany();
      for (const model of models) {
        const expected = manifest.tables.find((t) => t.model === model.name);
        // A table the archive lacks was created by a migration it predates (plan-archive-upgrade.ts): it stays empty.
        if (!expected) continue;
        const delegate = delegateOf(tx, model);
        let batch: Record<string, unknown>[] = [];
        let line = 0;
        for await (const text of createInterface({ input: createReadStream(tables.get(model.name)!), crlfDelay: Infinity })) {
          line++;
          try {
            batch.push(decodeRow(model, text, omittable.get(model.name)));
          } catch (error) {
            throw new ArchiveError(`${expected.entry} line ${line}: ${(error as Error).message}`);
          }
          if (batch.length >= BATCH) {
            await delegate.createMany({ data: batch });
            batch = [];
          }
        }
        if (batch.length > 0) await delegate.createMany({ data: batch });
        const count = await delegate.count();
        if (count !== expected.rows) throw new ArchiveError(`${expected.entry}: ${count} rows restored, the manifest says ${expected.rows}`);
        if (engine === "postgres" && model.autoincrement && count > 0) {
          const {
            table,
            autoincrement: { column },
          } = { table: model.table, autoincrement: model.autoincrement };
          await tx.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"${table}"', '${column}'), (SELECT MAX("${column}") FROM "${table}"))`);
        }
      }
      const missing = [...(await referencedBlobKeys(tx))].filter((key) => !blobKeys.has(key)).sort();
      if (missing.length > 0) {
        throw new ArchiveError(
          `the restored rows name ${missing.length} ${missing.length === 1 ? "blob" : "blobs"} the archive does not hold (${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}): the backup is incomplete`,
        );
      }
    },
    { timeout: LOAD_TIMEOUT_MS, maxWait: 60_000 },
  );
}
