import { strFromU8 } from "fflate";
import { ArchiveError, type ArchiveLimits } from "./archive-limits";
import { readZipEntries } from "./read-zip-entries";

/**
 * An Inspect AI `.eval` log (a zip: `header.json` with `{version, status, eval, plan, results,
 * stats}`, one `samples/<id>_epoch_<n>.json` per sample, plus journals and summaries) as the text
 * of the equivalent JSON log, `{…header, samples: […]}`, which the `inspect_eval_log` importer
 * reads. Inspect writes the same content both ways, so nothing is invented; samples are ordered by
 * their entry name, numbers compared as numbers (`2_epoch_1` before `10_epoch_1`). Issues found
 * while parsing point into this text (2-space indented so fields have their own lines).
 */
export function inspectLogFromEvalZip(file: string, bytes: Uint8Array, limits: ArchiveLimits): string {
  const entries = readZipEntries(file, bytes, (name) => name === "header.json" || /^samples\/[^/]+\.json$/.test(name), limits);
  const header = entries.get("header.json");
  if (!header) throw new ArchiveError("archive_unsupported", `${file}: a zip is accepted only as an Inspect .eval log, and this one has no header.json`);
  const parse = (name: string, data: Uint8Array): unknown => {
    try {
      return JSON.parse(strFromU8(data));
    } catch (error) {
      throw new ArchiveError("archive_corrupt", `${file}: ${name} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  };
  const names = [...entries.keys()].filter((n) => n.startsWith("samples/")).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const log = parse("header.json", header);
  const samples = names.map((name) => parse(name, entries.get(name)!));
  return JSON.stringify({ ...(log !== null && typeof log === "object" ? log : {}), samples }, null, 2);
}
