import { once } from "node:events";
import type { Writable } from "node:stream";

/**
 * Writes a POSIX ustar archive entry by entry to a stream: a 512-byte header, the bytes, zero
 * padding to 512, and two zero blocks at the end. Why our own: the format is a few dozen lines,
 * every name we write is short ASCII (`tables/<Model>.jsonl`, `blobs/<kind>/<xx>/<sha256>`), and
 * entries stream from the blob store without being held in memory (the evaluation export's zip
 * writer builds its archive in memory and stops at 4 GiB). Readable by `tar -xf`.
 */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  /** Adds one entry; `body` must yield exactly `size` bytes (checked, so a short read cannot slip in). */
  async add(name: string, size: number, body: AsyncIterable<Uint8Array> | Uint8Array): Promise<void> {
    await this.write(tarHeader(name, size));
    let written = 0;
    for await (const chunk of body instanceof Uint8Array ? [body] : body) {
      written += chunk.length;
      if (written > size) throw new Error(`${name}: more bytes than the ${size} announced`);
      await this.write(chunk);
    }
    if (written !== size) throw new Error(`${name}: ${written} bytes where ${size} were announced`);
    const pad = (512 - (size % 512)) % 512;
    if (pad > 0) await this.write(new Uint8Array(pad));
  }

  /** The end-of-archive marker (two zero blocks); the caller ends the stream. */
  async finish(): Promise<void> {
    await this.write(new Uint8Array(1024));
  }

  private async write(chunk: Uint8Array): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, "drain");
  }
}

/** One ustar header block. Sizes are octal in 11 digits (entries up to 8 GiB). */
export function tarHeader(name: string, size: number): Buffer {
  const nameBytes = Buffer.from(name, "utf8");
  if (nameBytes.length > 100) throw new Error(`tar entry name longer than 100 bytes: ${name}`);
  if (size > 0o77777777777) throw new Error(`${name}: entries over 8 GiB are not supported`);
  const header = Buffer.alloc(512);
  nameBytes.copy(header, 0);
  header.write("0000644\0", 100, "ascii"); // mode
  header.write("0000000\0", 108, "ascii"); // uid
  header.write("0000000\0", 116, "ascii"); // gid
  header.write(`${size.toString(8).padStart(11, "0")}\0`, 124, "ascii");
  header.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, "0")}\0`,
    136,
    "ascii",
  );
  header.write("        ", 148, "ascii"); // checksum field counts as spaces while summing
  header.write("0", 156, "ascii"); // regular file
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return header;
}
