import { MIGRATION_VERDICTS } from "../../server/backup/migration-verdicts";
import { createHash } from "node:crypto";
import { tarHeader } from "../../server/backup/tar-writer";

/** The archive's entries (an uncompressed tar) as [name, body] pairs, in order. */
export function entriesOf(tar: Buffer): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const name = tar
      .subarray(at, at + 100)
      .toString("utf8")
      .replace(/\0.*$/s, "");
    if (name === "") break;
    const size = parseInt(
      tar
        .subarray(at + 124, at + 136)
        .toString("ascii")
        .replace(/[\0 ]/g, ""),
      8,
    );
    out.push([name, tar.subarray(at + 512, at + 512 + size)]);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

export function readManifest(tar: Buffer): any {
  const entry = entriesOf(tar).find(([name]) => name === "manifest.json");
  if (!entry) throw new Error("no manifest.json");
  return JSON.parse(entry[1].toString("utf8"));
}

export interface ArchiveChange {
  edit: (manifest: any) => void;
  /** Entries left out. */
  drop?: string | string[];
  /** New bodies for entries; a table's size and sha256 in the manifest are updated to match (before `edit`). */
  rewrite?: Record<string, (body: Buffer) => Buffer>;
}

/**
 * The archive re-packed: entries left out (`drop`), rewritten with their manifest digests kept
 * consistent (`rewrite`), and the manifest edited, so only the restore's own checks can notice.
 */
export function repack(tar: Buffer, change: ArchiveChange): Buffer {
  const drop = new Set(typeof change.drop === "string" ? [change.drop] : (change.drop ?? []));
  const entries = entriesOf(tar);
  for (const name of [...drop, ...Object.keys(change.rewrite ?? {})])
    if (!entries.some(([n]) => n === name)) throw new Error(`no entry ${name} in the archive`);
  const rewritten = new Map<string, Buffer>();
  const parts: Buffer[] = [];
  for (const [name, original] of entries) {
    if (drop.has(name)) continue;
    let body = original;
    const rewrite = change.rewrite?.[name];
    if (rewrite) rewritten.set(name, (body = rewrite(original)));
    if (name === "manifest.json") {
      const manifest = JSON.parse(body.toString("utf8"));
      for (const table of manifest.tables) {
        const fresh = rewritten.get(table.entry);
        if (fresh) Object.assign(table, { bytes: fresh.length, sha256: createHash("sha256").update(fresh).digest("hex") });
      }
      change.edit(manifest);
      body = Buffer.from(JSON.stringify(manifest));
    }
    parts.push(tarHeader(name, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return Buffer.concat([...parts, Buffer.alloc(1024)]);
}

/**
 * Models whose tables migrations after the backup baseline created, in migration order: an archive
 * made at the baseline has none of them (its manifest lists none, its tar holds no entry for them).
 */
export const TABLES_AFTER_BASELINE: readonly string[] = MIGRATION_VERDICTS.flatMap((v) => (v.restore === "additive" ? (v.tables ?? []) : []));

/** Drops the tables of TABLES_AFTER_BASELINE from an archive's manifest (pair with `drop: laterTableEntries()`). */
export function withoutLaterTables(manifest: { tables: { model: string }[] }): void {
  manifest.tables = manifest.tables.filter((t) => !TABLES_AFTER_BASELINE.includes(t.model));
}

export function laterTableEntries(): string[] {
  return TABLES_AFTER_BASELINE.map((model) => `tables/${model}.jsonl`);
}
