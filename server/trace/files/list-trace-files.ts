import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** Extensions picked up when a directory is given; explicit file arguments are always taken. */
const TRACE_EXTENSIONS = /\.((jsonl|ndjson|json|traj)(\.gz)?|eval)$/i;
const AIDER_HISTORY = /(^|\/)\.?aider\.chat\.history\.md$|chat[._-]history\.md$/i;

/**
 * Expands file and directory arguments into trace files, directories walked recursively in sorted
 * order (so output and ids are deterministic). Hidden directories other than the cwd are skipped,
 * except that aider's `.aider.chat.history.md` files are recognised by name.
 */
export async function listTraceFiles(inputs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const info = await stat(input);
    if (info.isDirectory()) await walk(input, files);
    else files.push(input);
  }
  return files;
}

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== ".git") await walk(path, out);
    } else if (entry.isFile() && (TRACE_EXTENSIONS.test(entry.name) || AIDER_HISTORY.test(path))) {
      out.push(path);
    }
  }
}
