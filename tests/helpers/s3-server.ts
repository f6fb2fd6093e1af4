import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "../../server/storage/storage-config";

export interface TestS3 {
  settings: S3Settings;
  /** Sets an object's LastModified (s3rver reports its file's mtime): how tests age a blob. */
  backdate(key: string, when: Date): void;
  close(): Promise<void>;
}

/**
 * A local S3-compatible server for one test file: s3rver (pure JS) on a free loopback port, one
 * empty bucket, files in a temp directory removed on close. No network beyond 127.0.0.1. s3rver
 * checks the access key id (S3RVER) but not a V4 signature's value: the signature itself is
 * pinned by AWS's published examples in tests/unit/storage/s3-signature.test.ts.
 */
export async function startTestS3(bucket = "tracefold-test"): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "tracefold-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    settings: { endpoint: `http://127.0.0.1:${port}`, bucket, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true },
    backdate: (key, when) => utimesSync(join(directory, bucket, `${key}._S3rver_object`), when, when),
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
