import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createDb } from "../../../server/db/client";
import { createRun } from "../../../server/evaluation/create-run";
import { runEvaluation } from "../../../server/evaluation/run-evaluation";
import { createQueue } from "../../../server/review/create-queue";
import { prepareQueueContexts } from "../../../server/review/prepare-contexts";
import { localBlobStore } from "../../../server/storage/blob-store";
import { importTraceFile } from "../../../server/trace/import/import-trace-file";
import { createUser } from "../../../server/users/create-user";

export interface LoadAccount {
  email: string;
  password: string;
}

export interface LoadSeed {
  reviewers: LoadAccount[];
  uploader: LoadAccount;
  queueId: string;
  items: number;
  sessions: number;
}

/** Highest overlap createQueue accepts; with it every item can take 20 reviewers' completions. */
const QUEUE_OVERLAP = 20;
const PASSWORD = "tracefold-load-bench";

/**
 * Seeds the bench database through the studio's own server functions, before the server starts:
 * `reviewers` reviewer accounts plus one uploader (createUser, bcrypt like every account), every
 * trace of ../shared/traces (importTraceFile), an evaluation run over them executed in-process
 * (createRun + runEvaluation with the dependency judge) and a dependency review queue at overlap 20,
 * its item contexts prepared as the studio prepares them after creating a queue.
 * Refuses a queue with fewer items than twice the reviewers: each reviewer holds one leased item at a
 * time, so a smaller queue would measure lease contention, not saving.
 */
export async function seedLoad(url: string, dataDir: string, tracesDir: string, reviewers: number): Promise<LoadSeed> {
  const db = createDb(url);
  try {
    const accounts: LoadAccount[] = [];
    for (let i = 1; i <= reviewers; i++) {
      const account = { email: `reviewer${String(i).padStart(2, "0")}@load.tracefold.local`, password: PASSWORD };
      await createUser(db, { ...account, name: `Load reviewer ${i}`, role: "reviewer" });
      accounts.push(account);
    }
    const uploader = { email: "uploader@load.tracefold.local", password: PASSWORD };
    await createUser(db, { ...uploader, name: "Load uploader", role: "reviewer" });

    const store = localBlobStore(dataDir);
    const manifest = (await readFile(join(tracesDir, "MANIFEST.tsv"), "utf8")).split("\n").slice(1).filter(Boolean);
    let sessions = 0;
    for (const row of manifest) {
      const [path, format] = row.split("\t");
      const outcome = await importTraceFile({ db, store, path: join(tracesDir, path!), format: format as never });
      if (outcome.status === "failed") throw new Error(`seed: ${path} did not import: ${outcome.errors[0]?.message ?? "unknown error"}`);
      sessions += outcome.sessions.length;
    }

    const settings = { suite: { kind: "all" }, policies: ["none", "tool-prune", "oldest-turn"].map((id) => ({ id })), judge: "dependency", triggerLevel: 0.9 };
    const run = await createRun(db, { settings, name: "load bench source" });
    if (!run.ok) throw new Error(`seed: evaluation run: ${run.message}`);
    const status = await runEvaluation(db, run.runId, { workerId: "bench-load-seed", llm: null });
    if (status !== "done") throw new Error(`seed: evaluation ended ${status}`);
    const queue = await createQueue(db, { runId: run.runId, kind: "dependency", overlap: QUEUE_OVERLAP, name: "load bench dependency review" });
    if (!queue.ok) throw new Error(`seed: queue: ${queue.message}`);
    // What the studio does right after creating a queue (createQueueAction): every item's view data, stored.
    const prepared = await prepareQueueContexts(db, queue.queueId);
    if (prepared.ready !== prepared.total) throw new Error(`seed: ${prepared.total - prepared.ready} of ${prepared.total} item contexts could not be prepared`);
    if (queue.items < reviewers * 2) throw new Error(`seed: the queue has ${queue.items} items, fewer than twice the ${reviewers} reviewers`);
    return { reviewers: accounts, uploader, queueId: queue.queueId, items: queue.items, sessions };
  } finally {
    await db.$disconnect();
  }
}
