import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";

/** The bench's own build directory and tsconfig, so no other `next build` in the tree can swap files under it. */
export const LOAD_DIST_DIR = "data/.next-load";
const LOAD_TSCONFIG = "tsconfig.load.json";

export interface StudioServer {
  origin: string;
  /** SIGTERM to the process group, SIGKILL after 10 s; a no-op once the studio is gone. */
  stop(): Promise<void>;
  /** SIGKILL to the whole process group at once (a crash, as a lost machine would be); resolves when every process of the group is gone. */
  kill(): Promise<void>;
}

/**
 * Builds the studio into data/.next-load (unless `skipBuild` and a build is there), the way
 * scripts/e2e-server.sh does: `next build` rewrites next-env.d.ts to point at its dist dir, so the
 * file is put back afterwards, also when the build fails.
 */
export async function buildStudio(env: NodeJS.ProcessEnv, skipBuild: boolean): Promise<number> {
  if (skipBuild && existsSync(`${LOAD_DIST_DIR}/BUILD_ID`)) return 0;
  const saved = existsSync("next-env.d.ts") ? readFileSync("next-env.d.ts", "utf8") : null;
  const started = performance.now();
  try {
    const child = spawn("npx", ["--no-install", "next", "build"], {
      env: { ...env, TRACEFOLD_NEXT_DIST_DIR: LOAD_DIST_DIR, TRACEFOLD_TSCONFIG: LOAD_TSCONFIG },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) throw new Error(`next build exited with ${code}`);
  } finally {
    if (saved !== null && !saved.includes(LOAD_DIST_DIR)) writeFileSync("next-env.d.ts", saved);
    else if (existsSync("next-env.d.ts")) writeFileSync("next-env.d.ts", readFileSync("next-env.d.ts", "utf8").replaceAll(`./${LOAD_DIST_DIR}/`, "./.next/"));
  }
  return (performance.now() - started) / 1000;
}

/**
 * Starts `next start` on a free loopback port (its own process group) and waits until it answers.
 * `profileDir` runs it under `node --cpu-prof` (the profile is written when it stops), the way to
 * see where a request's CPU goes.
 */
export async function startStudio(env: NodeJS.ProcessEnv, logPath: string, profileDir?: string): Promise<StudioServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const log = createWriteStream(logPath);
  const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, require.resolve("next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)], {
    env: { ...env, NEXTAUTH_URL: origin, TRACEFOLD_NEXT_DIST_DIR: LOAD_DIST_DIR, TRACEFOLD_TSCONFIG: LOAD_TSCONFIG },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const stop = () => stopGroup(child);
  try {
    await waitUntilUp(origin, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, stop, kill: () => killGroup(child) };
}

async function waitUntilUp(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode} before answering`);
    try {
      if ((await fetch(`${origin}/api/auth/csrf`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the studio did not answer on ${origin} within 60 s`);
}

/** SIGTERM to the whole group (next and anything it started), SIGKILL after 10 s. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, "exit");
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // the group is already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
  signal("SIGKILL"); // stragglers of the group that outlived next
}

/**
 * SIGKILL to the whole group, then waits for next to exit and for no live process to be left in the
 * group, so the caller knows nothing of the killed studio can still write.
 */
async function killGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  const pgid = child.pid;
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, "exit");
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // the group is already gone
  }
  await exited;
  const deadline = Date.now() + 10_000;
  while (liveGroupMembers(pgid) > 0) {
    if (Date.now() > deadline) throw new Error(`process group ${pgid} still has live processes 10 s after SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Processes of group `pgid` that are not zombies, from /proc (a killed grandchild stays a zombie
 * until whoever adopted it reaps it, and signal 0 still reaches a zombie). Without /proc: 0.
 */
function liveGroupMembers(pgid: number): number {
  let live = 0;
  for (const name of existsSync("/proc") ? readdirSync("/proc") : []) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") live++;
  }
  return live;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
