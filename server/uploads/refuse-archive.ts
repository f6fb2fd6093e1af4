import { open } from "node:fs/promises";

/** An upload refused for what it is rather than its size: an archive, or several files in one request. */
export class UploadRefusedError extends Error {
  constructor(
    public readonly code: "archive_refused" | "one_file_per_request",
    message: string,
  ) {
    super(message);
    this.name = "UploadRefusedError";
  }
}

/**
 * Refuses zip and gzip archives by their magic bytes. Traces are uploaded as the files themselves:
 * an archive would have to be expanded on the server, and a zip bomb expands a few kilobytes into
 * gigabytes far past the size limit, so none is ever opened.
 */
export async function refuseArchive(path: string): Promise<void> {
  const handle = await open(path, "r");
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  const isZip = head[0] === 0x50 && head[1] === 0x4b && [0x03, 0x05, 0x07].includes(head[2]!) && [0x04, 0x06, 0x08].includes(head[3]!);
  const isGzip = head[0] === 0x1f && head[1] === 0x8b;
  if (isZip || isGzip) {
    throw new UploadRefusedError("archive_refused", `${isZip ? "zip" : "gzip"} archives are not accepted: unpack it and upload the trace files themselves`);
  }
}
