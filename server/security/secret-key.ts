import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../storage/data-dir";
import { processEnv } from "@/server/env";

/**
 * The studio's secret key for encrypting stored secrets (server/security/secret-box.ts):
 * TRACEFOLD_SECRET_KEY, else NEXTAUTH_SECRET, else the NEXTAUTH_SECRET `npm run studio` generated
 * into `<TRACEFOLD_DATA_DIR>/.nextauth-secret` (so the CLI, which is not given the variable, opens
 * what the studio sealed). Undefined when there is none: storing a secret is then refused.
 * Changing it makes stored secrets unreadable (they must be entered again), never readable by others.
 */
export function studioSecretKey(env: Record<string, string | undefined> = processEnv()): string | undefined {
  const fromEnv = env.TRACEFOLD_SECRET_KEY?.trim() || env.NEXTAUTH_SECRET?.trim();
  if (fromEnv) return fromEnv;
  try {
    return readFileSync(/*turbopackIgnore: true*/ join(dataDir(), ".nextauth-secret"), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

export const NO_SECRET_KEY_MESSAGE = "no secret key to encrypt with: set TRACEFOLD_SECRET_KEY (or NEXTAUTH_SECRET)";
