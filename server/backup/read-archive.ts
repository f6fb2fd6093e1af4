import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import { shaOfKey } from "../storage/blob-key";
import { BackupManifestSchema, blobEntry, MANIFEST_ENTRY, type BackupManifest } from "./manifest";
import { ArchiveError, extractTar, type ExtractedEntry } from "./tar-reader";

export interface VerifiedArchive {
  manifest: BackupManifest;
  /** Staged path of each table dump, by model name. */
  tables: Map<string, string>;
  /** Staged path of each blob, by key. */
  blobs: Map<string, string>;
}

/**
 * Unpacks an archive into `staging` and checks all of it before anything is written anywhere:
 * the gzip and tar framing (a truncated file fails here), the manifest against its schema, every
 * entry's size and sha256 against the manifest, every blob against the sha256 its key names, and
 * no entry the manifest does not list. Every failure is an ArchiveError that names the entry.
 */
export async function readArchive(file: string, staging: string): Promise<VerifiedArchive> {
  let n = 0;
  const destination = (name: string) => {
    if (name !== MANIFEST_ENTRY && !/^tables\/[A-Za-z]\w*\.jsonl$/.test(name) && !/^blobs\/(uploads|sidecars)\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(name)) {
      throw new ArchiveError(`unexpected entry ${JSON.stringify(name)}: not a Tracefold backup`);
    }
    const path = join(staging, `entry-${n++}`);
    return path;
  };
  const gzipped = await isGzip(file);
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  let entries: Map<string, ExtractedEntry>;
  try {
    // pipeline, not pipe: a gzip error must tear down both streams, not leave the file writing into a dead one.
    entries = await extractTar(gzipped ? pipeline(source, createGunzip(), () => undefined) : source, destination);
  } catch (error) {
    source.destroy();
    if (error instanceof ArchiveError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "Z_BUF_ERROR" || code === "Z_DATA_ERROR")
      throw new ArchiveError(`the archive's gzip stream is ${code === "Z_BUF_ERROR" ? "truncated" : "corrupted"} (${(error as Error).message})`);
    throw error;
  }
  const manifestEntry = entries.get(MANIFEST_ENTRY);
  if (!manifestEntry) throw new ArchiveError(`the archive has no ${MANIFEST_ENTRY}: it is truncated or not a Tracefold backup`);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(manifestEntry.path, "utf8"));
  } catch (error) {
    throw new ArchiveError(`${MANIFEST_ENTRY}: not JSON (${(error as Error).message})`);
  }
  const parsed = BackupManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ArchiveError(`${MANIFEST_ENTRY}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const manifest = parsed.data;
  const listed = new Set([MANIFEST_ENTRY]);
  const check = (name: string, bytes: number, sha256: string) => {
    listed.add(name);
    const entry = entries.get(name);
    if (!entry) throw new ArchiveError(`${name} is listed in the manifest but missing from the archive`);
    if (entry.bytes !== bytes) throw new ArchiveError(`${name}: ${entry.bytes} bytes, the manifest says ${bytes}`);
    if (entry.sha256 !== sha256) throw new ArchiveError(`${name}: sha256 ${entry.sha256} does not match the manifest's ${sha256}: the entry is corrupted`);
    return entry.path;
  };
  const tables = new Map<string, string>();
  for (const table of manifest.tables) tables.set(table.model, check(table.entry, table.bytes, table.sha256));
  const blobs = new Map<string, string>();
  for (const blob of manifest.blobs) blobs.set(blob.key, check(blobEntry(blob.key), blob.bytes, shaOfKey(blob.key)));
  for (const name of entries.keys()) if (!listed.has(name)) throw new ArchiveError(`entry ${name} is not listed in the manifest`);
  return { manifest, tables, blobs };
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}
