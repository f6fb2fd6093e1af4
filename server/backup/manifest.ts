import { z } from "zod";

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a 64-character hex sha256");

/**
 * `manifest.json`, the archive's last entry: what a restore checks everything else against. Last,
 * so an archive cut short is missing it and is refused whole. `migrations` is the schema version
 * (the applied migration names); a restore accepts the same list, or a prefix of its own when every
 * migration the archive lacks is additive (plan-archive-upgrade.ts), and refuses anything else.
 */
export const BackupManifestSchema = z.object({
  format: z.literal("tracefold-backup"),
  version: z.literal(1),
  createdAt: z.iso.datetime(),
  engine: z.enum(["sqlite", "postgres"]),
  migrations: z.array(z.string()),
  tables: z.array(z.object({ model: z.string().min(1), entry: z.string(), rows: z.number().int().min(0), bytes: z.number().int().min(0), sha256: Sha256 })),
  blobs: z.array(z.object({ key: z.string().regex(/^(uploads|sidecars)\/[0-9a-f]{2}\/[0-9a-f]{64}$/, "must be a blob key"), bytes: z.number().int().min(0) })),
});

export type BackupManifest = z.infer<typeof BackupManifestSchema>;

export const MANIFEST_ENTRY = "manifest.json";

/** Archive entry name of a blob. */
export const blobEntry = (key: string) => `blobs/${key}`;
