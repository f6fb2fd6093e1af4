import type { BlobStore } from "./blob-store";
import { localBlobStore } from "./local-blob-store";
import { s3BlobStore } from "./s3-blob-store";
import { storageConfigFrom, type StorageConfig } from "./storage-config";
import { processEnv } from "@/server/env";

/** The store a configuration names (tests and the restore command build one from explicit settings). */
export function blobStoreFor(config: StorageConfig, root?: string): BlobStore {
  return config.backend === "s3" ? s3BlobStore(config) : localBlobStore(root);
}

/**
 * The blob store this process is configured for (TRACEFOLD_STORAGE and TRACEFOLD_S3_*; see
 * storage-config.ts). Every studio server and worker must point at the same store: a blob written
 * by one is read by another. Throws StorageConfigError naming the bad variable.
 */
export function getBlobStore(): BlobStore {
  return blobStoreFor(storageConfigFrom(processEnv()));
}
