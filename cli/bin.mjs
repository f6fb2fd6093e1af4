#!/usr/bin/env node
// `tracefold` entry point: runs cli/main.ts through tsx with the repo's tsconfig (path aliases),
// whatever directory it is called from.
import { spawnSync } from "node:child_process";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Ctrl-C reaches the whole foreground process group, the command below included, which stops in
// its own way (`eval` cancels its model calls and exits 130): this wrapper waits for it instead of
// dying first and leaving it to write after the shell prompt is back.
process.on("SIGINT", () => {});

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "cli", "main.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, TSX_TSCONFIG_PATH: join(root, "tsconfig.json") },
});
// A command killed by a signal exits as a shell reports it: 128 + the signal's number.
process.exit(result.status ?? (result.signal ? 128 + (constants.signals[result.signal] ?? 0) : 1));
