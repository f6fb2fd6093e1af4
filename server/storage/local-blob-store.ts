import { createReadStream } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { assertBlobKey, BlobNotFoundError, blobKey, sha256OfBytes, sha256OfFile, type BlobKind } from "./blob-key";
import type { BlobStore, PutResult } from "./blob-store";
import { dataDir } from "./data-dir";

/**
 * The embedded default: blobs as files under `<root>/<kind>/<sha[0:2]>/<sha>`. A put writes a temp
 * file and renames it into place, so a crash never leaves a half-written blob under its key.
 */
export function localBlobStore(root = dataDir()): BlobStore {
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return join(/*turbopackIgnore: true*/ root, key);
  };
  const place = async (sha256: string, kind: BlobKind, write: (target: string) => Promise<void>): Promise<PutResult> => {
    const key = blobKey(kind, sha256);
    const target = pathOf(key);
    if (await sizeOf(target) !== null) return { key, sha256, created: false };
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await write(temp);
    await rename(temp, target);
    return { key, sha256, created: true };
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
  };
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}
