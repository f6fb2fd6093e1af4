import { resolve } from "node:path";
import { processEnv } from "@/server/env";

/**
 * The local data directory (TRACEFOLD_DATA_DIR, default ./data): the local blob store's root, and
 * the scratch space for upload temp files and demo files whichever store holds the blobs.
 */
export function dataDir(): string {
  // turbopackIgnore: the data directory is chosen at run time; do not trace it into the build.
  return resolve(/*turbopackIgnore: true*/ processEnv().TRACEFOLD_DATA_DIR || "data");
}
