import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { canonicalQuery, s3Target, signatureV4 } from "../../../server/storage/s3-request";

/** AWS's example credentials and bucket from "Signature Calculations for the Authorization Header" (S3 API reference). */
const AWS_EXAMPLE = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1" };
const BUCKET = { endpoint: "https://s3.amazonaws.com", bucket: "examplebucket", forcePathStyle: false };

describe("S3 Signature Version 4", () => {
  test("AWS's GET Object example (Range header, empty payload) signs to the published signature", () => {
    const { host, path } = s3Target(BUCKET, "test.txt");
    assert.deepEqual({ host, path }, { host: "examplebucket.s3.amazonaws.com", path: "/test.txt" });
    const authorization = signatureV4(AWS_EXAMPLE, "GET", path, {
      host,
      range: "bytes=0-9",
      "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "x-amz-date": "20130524T000000Z",
    });
    assert.equal(
      authorization,
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });

  test("AWS's PUT Object example (a key with $, a signed payload hash) signs to the published signature", () => {
    const { host, path } = s3Target(BUCKET, "test$file.text");
    assert.equal(path, "/test%24file.text", "RFC 3986 encoding of the key");
    const authorization = signatureV4(AWS_EXAMPLE, "PUT", path, {
      date: "Fri, 24 May 2013 00:00:00 GMT",
      host,
      "x-amz-content-sha256": "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072",
      "x-amz-date": "20130524T000000Z",
      "x-amz-storage-class": "REDUCED_REDUNDANCY",
    });
    assert.match(authorization, /, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd$/);
  });

  test("AWS's GET Bucket (List Objects) example (a signed query string) signs to the published signature", () => {
    const { host, path } = s3Target(BUCKET);
    const query = canonicalQuery({ prefix: "J", "max-keys": "2" });
    assert.equal(query, "max-keys=2&prefix=J", "parameters sorted by name");
    const authorization = signatureV4(
      AWS_EXAMPLE,
      "GET",
      path,
      {
        host,
        "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "x-amz-date": "20130524T000000Z",
      },
      query,
    );
    assert.match(authorization, /, Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/);
  });

  test("query values are RFC 3986-encoded (a continuation token's '/', '+' and '=')", () => {
    assert.equal(canonicalQuery({ "continuation-token": "a/b+c=", "list-type": "2" }), "continuation-token=a%2Fb%2Bc%3D&list-type=2");
  });

  test("path-style addressing keeps the endpoint's host and puts the bucket in the path", () => {
    assert.deepEqual(s3Target({ endpoint: "http://127.0.0.1:9000/", bucket: "tf", forcePathStyle: true }, "uploads/ab/abc"), {
      host: "127.0.0.1:9000",
      path: "/tf/uploads/ab/abc",
    });
    assert.deepEqual(s3Target({ endpoint: "http://minio.local:9000/base", bucket: "tf", forcePathStyle: true }), {
      host: "minio.local:9000",
      path: "/base/tf",
    });
  });
});
