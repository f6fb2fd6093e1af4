import { spawn } from "node:child_process";
import { resolve } from "node:path";
import type { WorkerProcess } from "./worker-process";

const ROOT = resolve(__dirname, "../..");

/** A running upload studio (tests/helpers/upload-studio-main.ts) and its loopback base URL. */
export interface UploadStudioProcess extends WorkerProcess {
  baseUrl: string;
}

/**
 * Starts the upload studio as a child process on the given database and data directory and
 * resolves once it listens. `TRACEFOLD_ASYNC_IMPORT_MB` defaults to 64, so the test's files are
 * imported inside the request, as the studio does below that size.
 */
export async function startUploadStudio(
  databaseUrl: string,
  dataDir: string,
  uploaderId: string,
  env: Record<string, string> = {},
): Promise<UploadStudioProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/upload-studio-main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      TRACEFOLD_DATA_DIR: dataDir,
      TRACEFOLD_STORAGE: "",
      TRACEFOLD_INPROCESS_WORKER: "0",
      TRACEFOLD_ASYNC_IMPORT_MB: "64",
      TRACEFOLD_TEST_UPLOADER_ID: uploaderId,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | string>((resolveExit) => child.on("exit", (code, signal) => resolveExit(code ?? signal ?? "unknown")));
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolvePort(Number(match[1]));
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`the upload studio exited (${code}) before listening:\n${output}`)));
  });
  return { child, output: () => output, exited, baseUrl: `http://127.0.0.1:${port}` };
}
