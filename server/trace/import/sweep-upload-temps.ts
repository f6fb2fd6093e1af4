import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * Temp files untouched this long belong to no live request: an upload request writes its temp
 * files continuously while the body streams and removes them when it ends (imports larger than
 * TRACEFOLD_ASYNC_IMPORT_MB leave the request as a stored blob), so only a process killed outright
 * (SIGKILL, a lost machine) leaves one this old.
 */
export const UPLOAD_TEMP_MAX_AGE_MS = 60 * 60_000;

/**
 * Removes the temp files a killed studio left in `dir` (data/tmp/uploads): the raw upload, secrets
 * included, and its redacted copy. Age, not process ids, decides, because several studio processes
 * may share the data directory and each other's in-flight files must survive. Returns the names
 * removed; files that vanish meanwhile (another process swept them) are skipped.
 */
export async function sweepUploadTemps(dir: string, now = Date.now(), maxAgeMs = UPLOAD_TEMP_MAX_AGE_MS): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile() || now - info.mtimeMs < maxAgeMs) continue;
    await rm(path, { force: true });
    removed.push(name);
  }
  return removed;
}
