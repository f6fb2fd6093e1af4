import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import type { Db } from "../db/client";
import type { DbEngine } from "../db/engine";
import { referencedBlobKeys } from "../storage/blob-references";
import { delegateOf } from "./model-delegate";
import { encodeRow } from "./row-codec";
import type { SchemaModel } from "./schema-models";

/** One table written as JSON lines: its archive entry name, row count, size and digest. */
export interface TableDump {
  model: string;
  entry: string;
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
}

export interface DatabaseDump {
  migrations: string[];
  tables: TableDump[];
  /**
   * Every blob key a row names, read in the dump's own snapshot by the function the blob sweep
   * uses (server/storage/blob-references.ts) — including the raw original inside a pending
   * UploadImport's `redaction` JSON, which no column holds.
   */
  blobKeys: string[];
}

const PAGE = 1_000;
const DUMP_TIMEOUT_MS = 6 * 60 * 60_000;

/**
 * Writes every table to `<dir>/<Model>.jsonl` inside ONE read transaction — REPEATABLE READ on
 * PostgreSQL, SQLite's snapshot of a WAL read transaction — so the dump is consistent while the
 * studio keeps serving: a label saved mid-backup is either wholly in it or not at all. Rows are
 * read in primary-key pages (never a whole table in memory) and streamed to disk.
 */
export async function dumpDatabase(db: Db, engine: DbEngine, models: SchemaModel[], dir: string): Promise<DatabaseDump> {
  const options = { timeout: DUMP_TIMEOUT_MS, maxWait: 60_000 };
  if (engine === "postgres") Object.assign(options, { isolationLevel: "RepeatableRead" });
  return db.$transaction(async (tx) => {
    const migrations = (await tx.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_tracefold_migrations" ORDER BY "name"`)).map((r) => r.name);
    const tables: TableDump[] = [];
    for (const model of models) tables.push(await dumpTable(tx, model, join(dir, `${model.name}.jsonl`)));
    const blobKeys = await referencedBlobKeys(tx);
    return { migrations, tables, blobKeys: [...blobKeys].sort() };
  }, options);
}

async function dumpTable(tx: unknown, model: SchemaModel, path: string): Promise<TableDump> {
  const delegate = delegateOf(tx, model);
  const out = createWriteStream(path);
  const hash = createHash("sha256");
  let rows = 0,
    bytes = 0;
  const orderBy = model.idFields.map((f) => ({ [f]: "asc" as const }));
  const single = model.idFields.length === 1 ? model.idFields[0]! : null;
  let cursor: unknown = undefined;
  for (;;) {
    const page = single
      ? await delegate.findMany({ orderBy, take: PAGE, ...(cursor !== undefined ? { cursor: { [single]: cursor }, skip: 1 } : {}) })
      : await delegate.findMany({ orderBy, take: PAGE, skip: rows });
    if (page.length === 0) break;
    let text = "";
    for (const row of page) text += `${encodeRow(row)}\n`;
    const chunk = Buffer.from(text, "utf8");
    hash.update(chunk);
    bytes += chunk.length;
    rows += page.length;
    if (!out.write(chunk)) await once(out, "drain");
    if (single) cursor = page[page.length - 1]![single];
    if (page.length < PAGE) break;
  }
  out.end();
  await once(out, "finish");
  return { model: model.name, entry: `tables/${model.name}.jsonl`, path, rows, bytes, sha256: hash.digest("hex") };
}
