import { crc32, inflateRawSync } from "node:zlib";

/**
 * A ZIP reader for tests, independent of server/evaluation/export/zip-writer.ts: finds the end record,
 * walks the central directory, inflates each entry (stored or deflated) and checks its size and
 * CRC-32 with node:zlib's own crc32. Throws on anything it does not understand.
 */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("no end of central directory record");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central header ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const packedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    if (zip.readUInt32LE(offset) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const packed = zip.subarray(start, start + packedSize);
    const data = method === 8 ? inflateRawSync(packed) : method === 0 ? Buffer.from(packed) : null;
    if (!data) throw new Error(`${name}: unsupported method ${method}`);
    if (data.length !== size || crc32(data) !== crc) throw new Error(`${name}: size or CRC mismatch`);
    files.set(name, data);
    at += 46 + nameLength + extra;
  }
  return files;
}
