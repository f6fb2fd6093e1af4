import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { assertBlobKey, BlobNotFoundError, blobKey, isBlobKey, sha256OfBytes, sha256OfFile, type BlobKind } from "./blob-key";
import type { BlobInfo, BlobStore, PutResult } from "./blob-store";
import { dataDir } from "./data-dir";

/**
 * The embedded default: blobs as files under `<root>/<kind>/<sha[0:2]>/<sha>`. A put writes a temp
 * file of its own (a random name: puts of the same bytes run at once — a replay folding duplicate
 * payloads, two workers, two requests) and links it into place, so a crash never leaves a
 * half-written blob under its key; a put of bytes already there touches the file's mtime (what
 * `lastModified` reports). Concurrent puts of the same new bytes all succeed: one places the file
 * (`created: true`), the others find it there with the right digest (`created: false`). The temp
 * file is removed whatever happens.
 */
export function localBlobStore(root = dataDir()): BlobStore {
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return join(/*turbopackIgnore: true*/ root, key);
  };
  const place = async (sha256: string, kind: BlobKind, write: (target: string) => Promise<void>): Promise<PutResult> => {
    const key = blobKey(kind, sha256);
    const target = pathOf(key);
    if ((await sizeOf(target)) !== null) {
      const now = new Date();
      // Removed meanwhile (a sweep): store it again rather than report bytes that are gone.
      const touched = await utimes(target, now, now).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return false;
          throw error;
        },
      );
      if (touched) return { key, sha256, created: false };
    }
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    try {
      await write(temp);
      return { key, sha256, created: await moveIntoPlace(temp, target, sha256) };
    } finally {
      await rm(temp, { force: true });
    }
  };
  const notFound = (key: string) => (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BlobNotFoundError(key);
    throw error;
  };
  return {
    putFile: async (path, kind) => place(await sha256OfFile(path), kind, (temp) => copyFile(path, temp)),
    putBytes: async (bytes, kind) => place(sha256OfBytes(bytes), kind, (temp) => writeFile(temp, bytes)),
    exists: async (key) => (await sizeOf(pathOf(key))) !== null,
    readBytes: async (key) => readFile(pathOf(key)).catch(notFound(key)),
    openRead: async (key) => {
      const bytes = await sizeOf(pathOf(key));
      if (bytes === null) throw new BlobNotFoundError(key);
      return { bytes, stream: createReadStream(pathOf(key), { highWaterMark: 1 << 20 }) };
    },
    remove: async (key) => rm(pathOf(key), { force: true }),
    stat: async (key) => infoOf(key, pathOf(key)),
    list: (kind) => listKind(root, kind),
  };
}

/** What link(2) answers on a filesystem without hard links (FAT, some network shares): rename instead. */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Puts a complete temp file under its key; true when this call placed it. link(2) refuses an
 * existing target atomically, so a put that lost the race to another put of the same bytes sees
 * EEXIST and counts as done when the file there has the right digest. A file there with other bytes
 * (damaged) is replaced, as is any target where hard links are not supported (rename(2) replaces
 * atomically). The caller removes the temp file.
 */
async function moveIntoPlace(temp: string, target: string, sha256: string): Promise<boolean> {
  try {
    await link(temp, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") {
      if ((await sha256OfFile(target).catch(() => null)) === sha256) return false;
    } else if (!NO_HARD_LINKS.has(code)) throw error;
  }
  await rename(temp, target);
  return true;
}

async function* listKind(root: string, kind: BlobKind): AsyncIterable<BlobInfo> {
  for (const prefix of await entries(join(/*turbopackIgnore: true*/ root, kind))) {
    for (const name of await entries(join(/*turbopackIgnore: true*/ root, kind, prefix))) {
      const key = `${kind}/${prefix}/${name}`;
      if (!isBlobKey(key)) continue;
      const info = await infoOf(key, join(/*turbopackIgnore: true*/ root, key));
      if (info) yield info;
    }
  }
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function infoOf(key: string, path: string): Promise<BlobInfo | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? { key, bytes: s.size, lastModified: s.mtime } : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The size of the blob file at `path`; null when there is none (nothing, or not a file). */
async function sizeOf(path: string): Promise<number | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : null;
  } catch {
    return null;
  }
}
