import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { BlobNotFoundError, localBlobStore, type BlobInfo, type BlobStore, type PutResult } from "../../../server/storage/blob-store";
import { s3BlobStore } from "../../../server/storage/s3-blob-store";
import { startTestS3, type TestS3 } from "../../helpers/s3-server";

const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** Both backends, one contract: what callers may rely on whichever store is configured. */
interface OpenedStore {
  store: BlobStore;
  /** Ages a blob behind the store's back (what an hour passing would do). */
  backdate(key: string, when: Date): void;
  close(): Promise<void>;
}

const BACKENDS: { name: string; open(): Promise<OpenedStore> }[] = [
  {
    name: "local disk",
    open: async () => {
      const root = mkdtempSync(join(tmpdir(), "tracefold-blobs-"));
      return {
        store: localBlobStore(root),
        backdate: (key, when) => utimesSync(join(root, key), when, when),
        close: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: "S3 (s3rver on loopback)",
    open: async () => {
      const s3: TestS3 = await startTestS3();
      return { store: s3BlobStore(s3.settings), backdate: s3.backdate, close: () => s3.close() };
    },
  },
];

const HOUR = 3_600_000;

async function listAll(store: BlobStore, kind: "uploads" | "sidecars"): Promise<Map<string, BlobInfo>> {
  const out = new Map<string, BlobInfo>();
  for await (const info of store.list(kind)) {
    assert.ok(!out.has(info.key), `${info.key} listed once`);
    out.set(info.key, info);
  }
  return out;
}

for (const backend of BACKENDS) {
  describe(`blob store contract: ${backend.name}`, () => {
    let store: BlobStore;
    let backdate: OpenedStore["backdate"];
    let close: () => Promise<void>;
    let scratch: string;
    before(async () => {
      ({ store, backdate, close } = await backend.open());
      scratch = mkdtempSync(join(tmpdir(), "tracefold-blob-src-"));
    });
    after(async () => {
      await close();
      rmSync(scratch, { recursive: true, force: true });
    });

    test("putBytes stores under <kind>/<sha[0:2]>/<sha> and reads back byte for byte", async () => {
      const bytes = Buffer.from("héllo\u0000world\n", "utf8");
      const put = await store.putBytes(bytes, "sidecars");
      assert.equal(put.sha256, sha(bytes));
      assert.equal(put.key, `sidecars/${put.sha256.slice(0, 2)}/${put.sha256}`);
      assert.equal(put.created, true);
      assert.deepEqual(await store.readBytes(put.key), bytes);
      assert.equal(await store.exists(put.key), true);
    });

    test("the same bytes are stored once: the second put reports created=false", async () => {
      const bytes = Buffer.from("same bytes twice");
      const first = await store.putBytes(bytes, "uploads");
      const second = await store.putBytes(new Uint8Array(bytes), "uploads");
      assert.equal(first.created, true);
      assert.equal(second.created, false);
      assert.equal(second.key, first.key);
    });

    test("putFile streams a 3 MiB file in and openRead streams it out with its size", async () => {
      const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 10)) & 0xff;
      const path = join(scratch, "big.bin");
      writeFileSync(path, bytes);
      const put = await store.putFile(path, "uploads");
      assert.equal(put.sha256, sha(bytes));
      assert.equal(put.created, true);
      assert.equal((await store.putFile(path, "uploads")).created, false, "a file already stored is not uploaded again");
      const { bytes: size, stream } = await store.openRead(put.key);
      assert.equal(size, bytes.length);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      assert.equal(sha(Buffer.concat(chunks)), put.sha256);
    });

    test("an empty blob is a blob", async () => {
      const put = await store.putBytes(new Uint8Array(0), "sidecars");
      assert.equal((await store.readBytes(put.key)).length, 0);
      assert.equal((await store.openRead(put.key)).bytes, 0);
    });

    test("remove deletes, and removing a missing key is not an error", async () => {
      const put = await store.putBytes(Buffer.from("to be removed"), "sidecars");
      await store.remove(put.key);
      assert.equal(await store.exists(put.key), false);
      await store.remove(put.key);
      assert.equal((await store.putBytes(Buffer.from("to be removed"), "sidecars")).created, true, "stored again after removal");
    });

    test("reading a missing key throws BlobNotFoundError naming the key", async () => {
      const key = `uploads/ab/ab${"0".repeat(62)}`;
      assert.equal(await store.exists(key), false);
      await assert.rejects(store.readBytes(key), (e: unknown) => e instanceof BlobNotFoundError && e.key === key);
      await assert.rejects(store.openRead(key), BlobNotFoundError);
    });

    test("list yields every blob of one kind, once, with its size and last write", async () => {
      const before = Date.now();
      const sidecars = await Promise.all([0, 1, 2, 3, 4].map((i) => store.putBytes(Buffer.from(`listed sidecar ${i}${"x".repeat(i)}`), "sidecars")));
      const upload = await store.putBytes(Buffer.from("listed upload"), "uploads");
      const listed = await listAll(store, "sidecars");
      for (const [i, put] of sidecars.entries()) {
        const info = listed.get(put.key);
        assert.ok(info, `${put.key} is listed`);
        assert.equal(info.bytes, `listed sidecar ${i}`.length + i);
        assert.ok(Math.abs(info.lastModified.getTime() - before) < 60_000, "lastModified is the time of the put");
      }
      assert.ok(![...listed.keys()].some((key) => !key.startsWith("sidecars/")), "only the kind asked for");
      assert.ok((await listAll(store, "uploads")).has(upload.key));
      await store.remove(sidecars[0]!.key);
      assert.equal((await listAll(store, "sidecars")).has(sidecars[0]!.key), false, "a removed blob is no longer listed");
    });

    test("stat reports size and last write, and null for a missing key", async () => {
      const put = await store.putBytes(Buffer.from("stat me"), "uploads");
      const info = await store.stat(put.key);
      assert.ok(info);
      assert.equal(info.key, put.key);
      assert.equal(info.bytes, 7);
      assert.ok(Math.abs(info.lastModified.getTime() - Date.now()) < 60_000);
      assert.equal(await store.stat(`uploads/cd/cd${"0".repeat(62)}`), null);
      await assert.rejects(store.stat("../x"), /invalid blob key/);
    });

    test("a put of bytes already stored brings an old blob's lastModified forward (created stays false)", async () => {
      const bytes = Buffer.from("stored long ago, uploaded again");
      const first = await store.putBytes(bytes, "uploads");
      backdate(first.key, new Date(Date.now() - 2 * HOUR));
      assert.ok((await store.stat(first.key))!.lastModified.getTime() < Date.now() - HOUR, "backdated");
      const path = join(scratch, "again.bin");
      writeFileSync(path, bytes);
      const again = await store.putFile(path, "uploads");
      assert.equal(again.created, false);
      const info = await store.stat(first.key);
      assert.ok(info && Date.now() - info.lastModified.getTime() < 60_000, `lastModified refreshed (was ${info?.lastModified.toISOString()})`);
      assert.deepEqual(await store.readBytes(first.key), bytes);
    });

    test("many concurrent puts of the same new bytes all succeed with one key and digest, and the bytes read back exact", async () => {
      // A replay folds duplicate payloads and two runs of one session overlap: the same bytes are put
      // many times at once (the local store once named its temp file by pid and millisecond, and two
      // puts in one millisecond shared it: ENOENT on rename).
      const bytes = Buffer.alloc(256 * 1024 + 3);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 9)) & 0xff;
      const path = join(scratch, "concurrent.bin");
      writeFileSync(path, bytes);
      const puts = await Promise.allSettled(
        Array.from({ length: 24 }, (_, i) => (i % 4 === 3 ? store.putFile(path, "sidecars") : store.putBytes(new Uint8Array(bytes), "sidecars"))),
      );
      const failures = puts.filter((p) => p.status === "rejected").map((p) => String((p as PromiseRejectedResult).reason));
      assert.deepEqual(failures, [], "every put succeeds");
      const results = puts.map((p) => (p as PromiseFulfilledResult<PutResult>).value);
      const digest = sha(bytes);
      for (const result of results) {
        assert.equal(result.sha256, digest);
        assert.equal(result.key, `sidecars/${digest.slice(0, 2)}/${digest}`);
      }
      assert.ok(
        results.some((r) => r.created),
        "the bytes were new: a put reports having stored them",
      );
      assert.deepEqual(await store.readBytes(results[0]!.key), bytes);
      assert.equal([...(await listAll(store, "sidecars")).keys()].filter((key) => key === results[0]!.key).length, 1);
    });

    test("a mix of concurrent puts (several payloads, each many times, some already stored) all land exact", async () => {
      const payloads = Array.from({ length: 6 }, (_, p) => Buffer.from(`payload ${p}: ${"folded tool output ".repeat(200 * (p + 1))}`));
      await store.putBytes(payloads[0]!, "uploads");
      const order = Array.from({ length: 60 }, (_, i) => (i * 7) % payloads.length);
      const puts = await Promise.allSettled(order.map((p) => store.putBytes(payloads[p]!, "uploads")));
      assert.deepEqual(
        puts.filter((p) => p.status === "rejected").map((p) => String((p as PromiseRejectedResult).reason)),
        [],
      );
      for (const [i, put] of puts.entries()) {
        const { key, sha256 } = (put as PromiseFulfilledResult<PutResult>).value;
        assert.equal(sha256, sha(payloads[order[i]!]!));
        assert.equal(key, `uploads/${sha256.slice(0, 2)}/${sha256}`);
      }
      for (const [p, payload] of payloads.entries()) {
        const created = puts.filter((put, i) => order[i] === p && (put as PromiseFulfilledResult<PutResult>).value.created).length;
        if (p === 0) assert.equal(created, 0, "bytes stored before are never reported as created");
        else assert.ok(created >= 1, `payload ${p} was new: a put reports having stored it`);
        assert.deepEqual(await store.readBytes(`uploads/${sha(payload).slice(0, 2)}/${sha(payload)}`), payload);
      }
    });

    test("malformed keys are refused before anything is built from them", async () => {
      for (const key of ["../etc/passwd", "uploads/ab/../../x", `uploads/ab/${"g".repeat(64)}`, `other/ab/${"a".repeat(64)}`]) {
        await assert.rejects(store.readBytes(key), /invalid blob key/);
        await assert.rejects(store.exists(key), /invalid blob key/);
        await assert.rejects(store.remove(key), /invalid blob key/);
      }
    });
  });
}

describe("local disk listing", () => {
  test("a put's leftover temp file and stray names are not listed as blobs", async () => {
    const root = mkdtempSync(join(tmpdir(), "tracefold-blobs-"));
    try {
      const store = localBlobStore(root);
      const put = await store.putBytes(Buffer.from("real"), "uploads");
      writeFileSync(join(root, `${put.key}.123.456.tmp`), "half-written");
      mkdirSync(join(root, "uploads", "zz"));
      writeFileSync(join(root, "uploads", "zz", "notes.txt"), "?");
      assert.deepEqual([...(await listAll(store, "uploads")).keys()], [put.key]);
      assert.deepEqual([...(await listAll(store, "sidecars")).keys()], [], "a kind never written lists nothing");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("local disk puts", () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "tracefold-blobs-"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  const filesUnder = (kind: string) =>
    readdirSync(join(root, kind), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);

  test("of the same new bytes put at once, exactly one places the file and no temp file is left", async () => {
    const store = localBlobStore(root);
    const bytes = Buffer.from("x".repeat(100_000));
    const results = await Promise.all(Array.from({ length: 16 }, () => store.putBytes(bytes, "sidecars")));
    assert.equal(results.filter((r) => r.created).length, 1);
    assert.deepEqual(filesUnder("sidecars"), [sha(bytes)]);
  });

  test("a put that cannot place its blob fails and removes its temp file", async () => {
    const store = localBlobStore(root);
    const bytes = Buffer.from("its key is taken by a directory");
    const digest = sha(bytes);
    mkdirSync(join(root, "uploads", digest.slice(0, 2), digest), { recursive: true });
    assert.equal(await store.exists(`uploads/${digest.slice(0, 2)}/${digest}`), false, "a directory is not a blob");
    await assert.rejects(store.putBytes(bytes, "uploads"), (e: NodeJS.ErrnoException) => e.code === "EISDIR");
    assert.deepEqual(filesUnder("uploads"), [], "no temp file left behind");
  });
});

describe("S3 failures are located", () => {
  test("an unknown access key fails with the operation, the key and the server's error code", async () => {
    const s3 = await startTestS3();
    try {
      const store = s3BlobStore({ ...s3.settings, accessKeyId: "NOT-A-KEY" });
      await assert.rejects(
        store.putBytes(Buffer.from("x"), "uploads"),
        /^S3Error: S3 HEAD uploads\/2d\/2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881 failed: 403/,
      );
      const missingBucket = s3BlobStore({ ...s3.settings, bucket: "no-such-bucket" });
      await assert.rejects(missingBucket.readBytes(`uploads/ab/ab${"0".repeat(62)}`), /S3 GET .* failed: 404 NoSuchBucket/);
      await assert.rejects(async () => {
        for await (const info of missingBucket.list("uploads")) assert.fail(`listed ${info.key}`);
      }, /S3 LIST uploads\/ failed: 404 NoSuchBucket/);
    } finally {
      await s3.close();
    }
  });
});
