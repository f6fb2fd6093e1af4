import { deflateRawSync } from "node:zlib";

/**
 * A minimal ZIP writer (PKWARE APPNOTE 6.3: local headers, deflated data, central directory, end
 * record) for the reproduction package. Why not a dependency: the package is written once per
 * download from entries already in memory, node:zlib gives raw deflate, and the whole format we
 * need is ~80 lines — adding `fflate` would also mean editing package.json and the lockfile that
 * other work changes concurrently. Limits, checked: fewer than 65,535 entries and under 4 GiB
 * (no ZIP64); names are UTF-8 (flag bit 11). Timestamps are the given date in DOS format.
 */
export interface ZipEntry {
  name: string;
  data: string | Uint8Array;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3), as ZIP stores it. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getUTCFullYear());
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    day: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** The archive as chunks (local records in entry order, then the central directory). */
export function writeZip(entries: readonly ZipEntry[], modified = new Date()): Uint8Array[] {
  if (entries.length >= 0xffff) throw new RangeError(`a package holds at most 65,534 files, got ${entries.length}`);
  const { time, day } = dosDateTime(modified);
  const chunks: Uint8Array[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const raw = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : entry.data;
    const packed = deflateRawSync(raw, { level: 6 });
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(0x031e, 4); // made by: UNIX, spec 3.0
    local.copy(header, 6, 4, 30); // version needed … name length: the same fields as the local header
    header.writeUInt16LE(0, 32); // comment length
    header.writeUInt16LE(0, 34); // disk
    header.writeUInt16LE(0, 36); // internal attributes
    header.writeUInt32LE((0o100644 << 16) >>> 0, 38); // -rw-r--r--
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    chunks.push(local, name, packed);
    offset += local.length + name.length + packed.length;
    if (offset > 0xffffffff) throw new RangeError("the package is larger than 4 GiB");
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  chunks.push(directory, end);
  return chunks;
}
