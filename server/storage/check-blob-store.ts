import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256OfBytes } from "./blob-key";
import { dataDir } from "./data-dir";
import { readText, S3Error, s3Failure, s3Request } from "./s3-request";
import { storageConfigFrom, type S3Settings, type StorageConfig } from "./storage-config";
import { processEnv } from "@/server/env";

/** The store cannot be used as configured; the message names the setting and what the store answered. */
export class BlobStoreCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlobStoreCheckError";
  }
}

/** How long the probe waits for the store before declaring it unreachable. */
const PROBE_TIMEOUT_MS = 15_000;

/**
 * Proves the configured blob store works before a studio or worker serves anything, so a wrong
 * bucket, endpoint or key fails at start-up with a message naming the setting — not on the first
 * upload, minutes or days later. The probe does what the studio will do: it writes a small object,
 * reads it back and removes it (S3: under `probe/`, which no listing of blobs includes; local disk:
 * a dot-file in the data directory). Throws BlobStoreCheckError (or StorageConfigError for a
 * setting that does not even parse).
 */
export async function checkConfiguredBlobStore(env: Record<string, string | undefined> = processEnv()): Promise<void> {
  await checkBlobStore(storageConfigFrom(env), { root: dataDir() });
}

/**
 * For process entry points (instrumentation.ts, server/worker/main.ts): checks the configured store and,
 * when it fails, prints the one-line reason and exits 1 — a process that cannot store blobs must
 * not start serving.
 */
export async function checkBlobStoreOrExit(processName: string): Promise<void> {
  try {
    await checkConfiguredBlobStore();
  } catch (error) {
    console.error(`${processName} cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

export async function checkBlobStore(config: StorageConfig, options: { root?: string; timeoutMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  if (config.backend === "local") return checkLocal(options.root ?? dataDir());
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([probeS3(config), timeout]);
  } catch (error) {
    throw new BlobStoreCheckError(
      `blob store check failed: ${settingFor(error)} (TRACEFOLD_STORAGE=s3, bucket ${JSON.stringify(config.bucket)} at ${config.endpoint}): ${answerOf(error)}`,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function probeS3(settings: S3Settings): Promise<void> {
  const key = `probe/${randomBytes(12).toString("hex")}`;
  const body = Buffer.from(`tracefold storage probe ${new Date().toISOString()}\n`);
  const put = await s3Request(settings, { method: "PUT", key, payloadSha256: sha256OfBytes(body), contentLength: body.length, body });
  if (put.status !== 200) throw await s3Failure(`PUT ${key}`, put);
  await readText(put.body);
  const get = await s3Request(settings, { method: "GET", key });
  if (get.status !== 200) throw await s3Failure(`GET ${key}`, get);
  const read = await readText(get.body);
  if (read !== body.toString("utf8")) throw new Error(`GET ${key} returned other bytes than were written`);
  const remove = await s3Request(settings, { method: "DELETE", key });
  if (remove.status !== 204 && remove.status !== 200) throw await s3Failure(`DELETE ${key}`, remove);
  await readText(remove.body);
}

/** The variable most likely wrong, from the store's answer. */
function settingFor(error: unknown): string {
  if (error instanceof S3Error) {
    switch (error.code) {
      case "NoSuchBucket":
        return "TRACEFOLD_S3_BUCKET names no bucket";
      case "InvalidAccessKeyId":
        return "TRACEFOLD_S3_ACCESS_KEY_ID is not known to the store";
      case "SignatureDoesNotMatch":
        return "TRACEFOLD_S3_SECRET_ACCESS_KEY does not match the access key";
      case "AuthorizationHeaderMalformed":
      case "PermanentRedirect":
        return "TRACEFOLD_S3_REGION or TRACEFOLD_S3_ENDPOINT does not match the bucket";
      case "AccessDenied":
        return "the credentials of TRACEFOLD_S3_ACCESS_KEY_ID may not write, read and delete in TRACEFOLD_S3_BUCKET";
      default:
        return "the store refused the TRACEFOLD_S3_* settings";
    }
  }
  return "TRACEFOLD_S3_ENDPOINT cannot be reached";
}

function answerOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !(error instanceof S3Error) && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
}

async function checkLocal(root: string): Promise<void> {
  const probe = join(/*turbopackIgnore: true*/ root, `.probe-${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    await mkdir(root, { recursive: true });
    await writeFile(probe, "tracefold storage probe\n");
    await readFile(probe);
    await rm(probe, { force: true });
  } catch (error) {
    throw new BlobStoreCheckError(
      `blob store check failed: TRACEFOLD_DATA_DIR ${JSON.stringify(root)} is not a writable directory (TRACEFOLD_STORAGE=local): ${answerOf(error)}`,
    );
  }
}
