import { Unzip, UnzipInflate } from "fflate";
import { ArchiveError, checkExpansion, type ArchiveLimits } from "./archive-limits";

/**
 * The entries of a zip whose names `wanted` accepts, inflated with fflate's streaming unzipper so
 * the bytes actually produced are counted as they come (a header can lie about sizes): expansion
 * stops at the first crossed limit (checkExpansion). Entries not wanted are never inflated.
 */
export function readZipEntries(file: string, bytes: Uint8Array, wanted: (name: string) => boolean, limits: ArchiveLimits): Map<string, Uint8Array> {
  const chunks = new Map<string, Uint8Array[]>();
  let total = 0;
  let failure: unknown;
  const unzip = new Unzip((entry) => {
    if (failure || !wanted(entry.name)) return;
    const parts: Uint8Array[] = [];
    chunks.set(entry.name, parts);
    entry.ondata = (error, data) => {
      if (failure) return;
      if (error) failure = new ArchiveError("archive_corrupt", `${file}: entry ${entry.name} cannot be inflated (${error.message})`);
      else {
        total += data.length;
        try {
          checkExpansion(file, bytes.length, total, limits);
          parts.push(data);
        } catch (limitError) {
          failure = limitError;
        }
      }
      if (failure) entry.terminate();
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(bytes, true);
  } catch (error) {
    failure ??= new ArchiveError("archive_corrupt", `${file}: not a readable zip archive (${error instanceof Error ? error.message : String(error)})`);
  }
  if (failure) throw failure;
  return new Map([...chunks].map(([name, parts]) => [name, concat(parts)]));
}

/** The chunks one entry inflated to, joined (fflate hands them over one by one). */
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((offset, part) => {
    out.set(part, offset);
    return offset + part.length;
  }, 0);
  return out;
}
