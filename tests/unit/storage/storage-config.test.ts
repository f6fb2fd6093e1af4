import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { storageConfigFrom, StorageConfigError } from "../../../server/storage/storage-config";

const S3 = {
  TRACEFOLD_STORAGE: "s3",
  TRACEFOLD_S3_ENDPOINT: "http://127.0.0.1:9000",
  TRACEFOLD_S3_BUCKET: "tracefold-blobs",
  TRACEFOLD_S3_ACCESS_KEY_ID: "id",
  TRACEFOLD_S3_SECRET_ACCESS_KEY: "secret",
};

const refusal = (env: Record<string, string | undefined>, variable: string) =>
  assert.throws(
    () => storageConfigFrom(env),
    (e: unknown) => e instanceof StorageConfigError && e.message.startsWith(`${variable}:`),
    `names ${variable}`,
  );

describe("storage settings", () => {
  test("unset or blank TRACEFOLD_STORAGE is local disk", () => {
    assert.deepEqual(storageConfigFrom({}), { backend: "local" });
    assert.deepEqual(storageConfigFrom({ TRACEFOLD_STORAGE: " " }), { backend: "local" });
  });

  test("a custom endpoint defaults to path-style addressing and us-east-1", () => {
    assert.deepEqual(storageConfigFrom(S3), {
      backend: "s3",
      endpoint: "http://127.0.0.1:9000",
      bucket: "tracefold-blobs",
      region: "us-east-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
      forcePathStyle: true,
    });
  });

  test("without an endpoint it is AWS in the region, virtual-hosted unless forced", () => {
    const config = storageConfigFrom({ ...S3, TRACEFOLD_S3_ENDPOINT: undefined, TRACEFOLD_S3_REGION: "eu-west-3" });
    assert.equal(config.backend === "s3" && config.endpoint, "https://s3.eu-west-3.amazonaws.com");
    assert.equal(config.backend === "s3" && config.forcePathStyle, false);
    const forced = storageConfigFrom({ ...S3, TRACEFOLD_S3_ENDPOINT: "", TRACEFOLD_S3_FORCE_PATH_STYLE: "1" });
    assert.equal(forced.backend === "s3" && forced.forcePathStyle, true);
  });

  test("each bad setting is refused with the variable's name", () => {
    refusal({ TRACEFOLD_STORAGE: "gcs" }, "TRACEFOLD_STORAGE");
    refusal({ ...S3, TRACEFOLD_S3_BUCKET: undefined }, "TRACEFOLD_S3_BUCKET");
    refusal({ ...S3, TRACEFOLD_S3_BUCKET: "Bad_Bucket" }, "TRACEFOLD_S3_BUCKET");
    refusal({ ...S3, TRACEFOLD_S3_ACCESS_KEY_ID: "" }, "TRACEFOLD_S3_ACCESS_KEY_ID");
    refusal({ ...S3, TRACEFOLD_S3_SECRET_ACCESS_KEY: undefined }, "TRACEFOLD_S3_SECRET_ACCESS_KEY");
    refusal({ ...S3, TRACEFOLD_S3_ENDPOINT: "ftp://host" }, "TRACEFOLD_S3_ENDPOINT");
    refusal({ ...S3, TRACEFOLD_S3_FORCE_PATH_STYLE: "yes" }, "TRACEFOLD_S3_FORCE_PATH_STYLE");
  });

  test("every missing variable is listed at once", () => {
    assert.throws(
      () => storageConfigFrom({ TRACEFOLD_STORAGE: "s3" }),
      /TRACEFOLD_S3_BUCKET: .*TRACEFOLD_S3_ACCESS_KEY_ID: .*TRACEFOLD_S3_SECRET_ACCESS_KEY: /,
    );
  });
});
