import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
}

/**
 * Starts `npm run worker`'s entry point (server/worker/main.ts through tsx) as a child
 * process on the given database, with short sweep and stale intervals so a fault test sees a
 * killed worker's run taken over in seconds. `env` adds or overrides variables.
 */
export function startWorker(databaseUrl: string, dataDir: string, env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "server/worker/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      TRACEFOLD_DATA_DIR: dataDir,
      TRACEFOLD_LLM_PROVIDER: "",
      TRACEFOLD_LLM_MODEL: "",
      TRACEFOLD_JOB_POLL_MS: "500",
      TRACEFOLD_JOB_SWEEP_MS: "300",
      TRACEFOLD_RUN_STALE_MS: "2000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolveExit) => child.on("exit", (code, signal) => resolveExit(code ?? signal ?? "unknown")));
  return { child, output: () => output, exited };
}

/** Polls `check` every 50 ms until it holds; throws `message` (with the worker output) after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, message: string, timeoutMs = 45_000, worker?: WorkerProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${message} (timed out after ${timeoutMs} ms)${worker ? `\nworker output:\n${worker.output()}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SIGKILLs the workers still running and waits until every one has exited (a test's `after`). */
export async function killWorkers(workers: readonly WorkerProcess[]): Promise<void> {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
  await Promise.all(workers.map((w) => w.exited));
}
