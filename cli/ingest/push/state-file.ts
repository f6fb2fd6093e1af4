import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { emptyPushState, PushStateSchema, type PushState } from "@/lib/ingest/push/push-state";

/** The default state file: one per studio host, in the current directory. */
export function defaultStatePath(to: string): string {
  return `.tracefold-push.${new URL(to).host.replace(/[^A-Za-z0-9.-]/g, "_")}.json`;
}

export class PushStateError extends Error {}

/** The state file's content, a fresh state when it does not exist, or a located error when it is not one. */
export async function readPushState(path: string, to: string): Promise<PushState> {
  if (!existsSync(path)) return emptyPushState(to);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new PushStateError(`${path}: not JSON (${error instanceof Error ? error.message : String(error)}); remove it to push everything again`);
  }
  const parsed = PushStateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PushStateError(`${path}: ${issue.path.join(".") || "(root)"}: ${issue.message}; remove it to push everything again`);
  }
  if (parsed.data.to !== to) throw new PushStateError(`${path} records pushes to ${parsed.data.to}, not ${to}: pass --state with another file`);
  return parsed.data;
}

/** Written after every file, through a temp file and a rename, so a killed push leaves a whole state. */
export async function writePushState(path: string, state: PushState): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`);
  await rename(temp, path);
}

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
