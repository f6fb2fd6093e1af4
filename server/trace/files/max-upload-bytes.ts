import { processEnv } from "@/server/env";

/** Default cap on one uploaded file, in MB (large Claude Code / Codex sessions reach hundreds of MB). */
export const DEFAULT_MAX_UPLOAD_MB = 512;

/**
 * The largest upload accepted, in bytes, from TRACEFOLD_MAX_UPLOAD_MB. Read on every call (not at
 * module load) so the limit is the running server's, not the build machine's.
 */
export function maxUploadBytes(env: Record<string, string | undefined> = processEnv()): number {
  const raw = env.TRACEFOLD_MAX_UPLOAD_MB;
  const mb = raw === undefined || raw.trim() === "" ? DEFAULT_MAX_UPLOAD_MB : Number(raw);
  if (!Number.isFinite(mb) || mb <= 0) return DEFAULT_MAX_UPLOAD_MB * 1024 * 1024;
  return Math.floor(mb * 1024 * 1024);
}
