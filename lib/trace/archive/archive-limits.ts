/**
 * Limits on expanding a compressed trace (a gzip'd JSON/JSONL file, a zipped Inspect `.eval` log).
 * A zip bomb turns kilobytes into gigabytes, far past the upload size limit, so expansion stops as
 * soon as either limit is crossed: the total expanded bytes, or the expansion ratio once the
 * output is past `ratioFloorBytes` (small, very repetitive traces legitimately compress 100×+, so
 * the ratio alone would refuse them).
 */
export interface ArchiveLimits {
  maxExpandedBytes: number;
  maxRatio: number;
  ratioFloorBytes: number;
}

/** Default ratio cap: JSON traces compress 5–30×; 200× past the floor is a bomb, not a trace. */
export const DEFAULT_MAX_ARCHIVE_RATIO = 200;
export const DEFAULT_RATIO_FLOOR_BYTES = 16 * 1024 * 1024;

/** Why an archive was refused: too large once expanded (a bomb), unreadable, or not a trace archive. */
export type ArchiveRefusal = "archive_too_large" | "archive_corrupt" | "archive_unsupported";

/** A compressed upload refused before anything was imported; the message names the file and the limit. */
export class ArchiveError extends Error {
  constructor(
    public readonly code: ArchiveRefusal,
    message: string,
  ) {
    super(message);
    this.name = "ArchiveError";
  }
}

export type ArchiveKind = "gzip" | "zip";

/** gzip (1f 8b) or zip (PK\x03\x04, also an empty or spanned archive) by the first four bytes. */
export function archiveKindOf(head: Uint8Array): ArchiveKind | undefined {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  const isZip = head[0] === 0x50 && head[1] === 0x4b && [0x03, 0x05, 0x07].includes(head[2]!) && [0x04, 0x06, 0x08].includes(head[3]!);
  return isZip ? "zip" : undefined;
}

/**
 * Throws ArchiveError("archive_too_large") when `expandedBytes` out of `compressedBytes` crosses a
 * limit. Called as the output grows, so a bomb is stopped early rather than measured at the end.
 */
export function checkExpansion(file: string, compressedBytes: number, expandedBytes: number, limits: ArchiveLimits): void {
  if (expandedBytes > limits.maxExpandedBytes) {
    throw new ArchiveError(
      "archive_too_large",
      `${file}: expands past ${describe(limits.maxExpandedBytes)}, the limit on an uncompressed trace (zip-bomb guard)`,
    );
  }
  if (expandedBytes > limits.ratioFloorBytes && expandedBytes > compressedBytes * limits.maxRatio) {
    throw new ArchiveError(
      "archive_too_large",
      `${file}: expands more than ${limits.maxRatio}× its compressed size past ${describe(limits.ratioFloorBytes)} (zip-bomb guard)`,
    );
  }
}

function describe(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
