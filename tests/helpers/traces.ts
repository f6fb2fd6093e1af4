import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** Where the real third-party traces live: `../shared/traces` beside the repo, or TRACEFOLD_TRACES_DIR. */
export const TRACES_DIR = process.env.TRACEFOLD_TRACES_DIR ?? resolve(__dirname, "../../../shared/traces");
/** The second, held-apart set of real traces (newer formats): `../shared/traces-new`, or TRACEFOLD_TRACES_NEW_DIR. */
export const TRACES_NEW_DIR = process.env.TRACEFOLD_TRACES_NEW_DIR ?? resolve(__dirname, "../../../shared/traces-new");

export interface ManifestEntry {
  path: string;
  absolutePath: string;
  format: string;
  bytes: number;
  sessions: number;
  messages: number;
  toolCalls: number;
  toolResults: number;
  models: string[];
}

/** Rows of MANIFEST.tsv: the expected counts every importer test checks against. */
export function readManifest(): ManifestEntry[] {
  const [header, ...rows] = readFileSync(resolve(TRACES_DIR, "MANIFEST.tsv"), "utf8").trim().split("\n");
  const columns = header!.split("\t");
  return rows.map((row) => {
    const cells = row.split("\t");
    const get = (name: string) => cells[columns.indexOf(name)] ?? "";
    return {
      path: get("path"),
      absolutePath: resolve(TRACES_DIR, get("path")),
      format: get("format"),
      bytes: Number(get("bytes")),
      sessions: Number(get("sessions")),
      messages: Number(get("messages")),
      toolCalls: Number(get("tool_calls")),
      toolResults: Number(get("tool_results")),
      models: get("models") ? get("models").split(";") : [],
    };
  });
}
