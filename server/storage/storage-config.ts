import { z } from "zod";

/** Where an S3-compatible store is and how to sign for it (see s3-request.ts). */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export type StorageConfig = { backend: "local" } | ({ backend: "s3" } & S3Settings);

const flag = z.enum(["true", "false", "1", "0"], { error: "must be true, false, 1 or 0" }).transform((v) => v === "true" || v === "1");
const required = (what: string) => z.string({ error: `required when TRACEFOLD_STORAGE=s3 (${what})` }).min(1, `required when TRACEFOLD_STORAGE=s3 (${what})`);

/** Keyed by variable name, so every issue's path is the variable to fix. */
const S3EnvSchema = z.object({
  TRACEFOLD_S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  TRACEFOLD_S3_BUCKET: required("the bucket name").regex(
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
    "must be a valid bucket name (3-63 characters: a-z, 0-9, dot, dash)",
  ),
  TRACEFOLD_S3_REGION: z.string().min(1).default("us-east-1"),
  TRACEFOLD_S3_ACCESS_KEY_ID: required("the access key id"),
  TRACEFOLD_S3_SECRET_ACCESS_KEY: required("the secret access key"),
  TRACEFOLD_S3_FORCE_PATH_STYLE: flag.optional(),
});

/** A storage setting is wrong; the message names the variable. */
export class StorageConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StorageConfigError";
  }
}

/**
 * Reads the storage settings from an environment (a parameter, so tests pass their own).
 * `TRACEFOLD_STORAGE` is `local` (default: blobs under TRACEFOLD_DATA_DIR) or `s3`. For S3 the
 * endpoint defaults to AWS (`https://s3.<region>.amazonaws.com`), and path-style addressing is on
 * by default for a custom endpoint (MinIO, Ceph, s3rver expect it) and off for AWS.
 */
export function storageConfigFrom(env: Record<string, string | undefined>): StorageConfig {
  const backend = (env.TRACEFOLD_STORAGE ?? "").trim() || "local";
  if (backend === "local") return { backend: "local" };
  if (backend !== "s3") throw new StorageConfigError(`TRACEFOLD_STORAGE: must be local or s3, got ${JSON.stringify(backend)}`);
  const blanksUnset = Object.fromEntries(
    Object.entries(env)
      .filter(([k, v]) => k.startsWith("TRACEFOLD_S3_") && v !== undefined && v.trim() !== "")
      .map(([k, v]) => [k, v!.trim()]),
  );
  const parsed = S3EnvSchema.safeParse(blanksUnset);
  if (!parsed.success) {
    throw new StorageConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  }
  const s3 = parsed.data;
  return {
    backend: "s3",
    endpoint: s3.TRACEFOLD_S3_ENDPOINT ?? `https://s3.${s3.TRACEFOLD_S3_REGION}.amazonaws.com`,
    bucket: s3.TRACEFOLD_S3_BUCKET,
    region: s3.TRACEFOLD_S3_REGION,
    accessKeyId: s3.TRACEFOLD_S3_ACCESS_KEY_ID,
    secretAccessKey: s3.TRACEFOLD_S3_SECRET_ACCESS_KEY,
    forcePathStyle: s3.TRACEFOLD_S3_FORCE_PATH_STYLE ?? s3.TRACEFOLD_S3_ENDPOINT !== undefined,
  };
}
