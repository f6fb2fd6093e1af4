import { createReadStream, createWriteStream } from "node:fs";
import { open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import {
  ArchiveError,
  archiveKindOf,
  checkExpansion,
  DEFAULT_MAX_ARCHIVE_RATIO,
  DEFAULT_RATIO_FLOOR_BYTES,
  type ArchiveKind,
  type ArchiveLimits,
} from "@/lib/trace/archive/archive-limits";
import { inspectLogFromEvalZip } from "@/lib/trace/archive/inspect-eval-archive";
import { processEnv } from "@/server/env";
import { maxUploadBytes } from "./max-upload-bytes";

/**
 * Expansion limits: an expanded trace may be as large as an uncompressed upload
 * (TRACEFOLD_MAX_UPLOAD_MB) and no more than TRACEFOLD_MAX_ARCHIVE_RATIO (default 200) times its
 * compressed size once past 16 MB. Read on every call, like the upload limit.
 */
export function archiveLimits(env: Record<string, string | undefined> = processEnv()): ArchiveLimits {
  const ratio = Number(env.TRACEFOLD_MAX_ARCHIVE_RATIO);
  return {
    maxExpandedBytes: maxUploadBytes(env),
    maxRatio: Number.isFinite(ratio) && ratio >= 1 ? ratio : DEFAULT_MAX_ARCHIVE_RATIO,
    ratioFloorBytes: DEFAULT_RATIO_FLOOR_BYTES,
  };
}

/**
 * Expands a compressed trace file into `outPath`: gzip (any JSON/JSONL trace) is streamed through
 * zlib with every output chunk counted against the limits; a zip is accepted only as an Inspect
 * `.eval` log and written as the equivalent JSON log (inspect-eval-archive.ts). Returns the archive
 * kind, or undefined (nothing written) for a plain file. On any refusal `outPath` is removed and an
 * ArchiveError naming `fileName` and the limit is thrown, before anything reaches the database.
 */
export async function expandArchive(
  path: string,
  outPath: string,
  fileName: string,
  limits: ArchiveLimits = archiveLimits(),
): Promise<ArchiveKind | undefined> {
  const kind = archiveKindOf(await readHead(path));
  if (!kind) return undefined;
  try {
    if (kind === "zip") await writeFile(outPath, inspectLogFromEvalZip(fileName, new Uint8Array(await readFile(path)), limits));
    else await gunzipTo(path, outPath, fileName, limits);
    return kind;
  } catch (error) {
    await rm(outPath, { force: true });
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(
      "archive_corrupt",
      `${fileName}: not a readable ${kind === "zip" ? "zip (.eval)" : "gzip"} file (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

async function gunzipTo(path: string, outPath: string, fileName: string, limits: ArchiveLimits): Promise<void> {
  const { size } = await stat(path);
  let total = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      try {
        checkExpansion(fileName, size, total, limits);
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
  });
  await pipeline(createReadStream(path), createGunzip(), count, createWriteStream(outPath));
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const head = new Uint8Array(4);
    await handle.read(head, 0, 4, 0);
    return head;
  } finally {
    await handle.close();
  }
}
