/**
 * Next calls `register()` once when a server instance starts (never during `next build`). Tracefold
 * starts the evaluation runner here, so queued runs and runs orphaned by the previous process resume
 * right after a restart instead of waiting for someone to open an evaluation page. The runner needs
 * Node (Prisma, node:crypto): the edge runtime skips it, and the import is dynamic so the edge
 * bundle never includes the server modules.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ getDb }, { startEvalRunner }] = await Promise.all([import("./server/db/client"), import("./server/evals/start-eval-runner")]);
  startEvalRunner(getDb());
}
