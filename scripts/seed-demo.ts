/**
 * `npm run studio`'s seeding step: the demo accounts, the demo traces (see
 * server/demo/seed-demo-traces.ts) and the demo usage log (server/demo/seed-demo-usage.ts). Safe to run on every start.
 */
import { resolve } from "node:path";
import { getDb } from "../server/db/client";
import { seedDemoTraces } from "../server/demo/seed-demo-traces";
import { seedDemoUsage } from "../server/demo/seed-demo-usage";
import { dataDir } from "../server/storage/blob-store";
import { getBlobStore } from "../server/storage/configured-blob-store";
import { DEMO_PASSWORD, ensureDemoUsers } from "../server/users/ensure-demo-users";

async function main(): Promise<void> {
  const db = getDb();
  try {
    const emails = await ensureDemoUsers(db);
    console.log(`seed-demo: accounts ${emails.join(", ")} (password ${DEMO_PASSWORD})`);
    const shared = { sharedTraces: resolve("..", "shared", "traces"), sharedTracesNew: resolve("..", "shared", "traces-new") };
    const reports = await seedDemoTraces(db, getBlobStore(), { dataDir: dataDir(), ...shared });
    const imported = reports.filter((r) => r.status === "imported");
    const failed = reports.filter((r) => r.status === "failed");
    console.log(`seed-demo: ${imported.length} files imported, ${reports.length - imported.length - failed.length} already present, ${failed.length} failed`);
    for (const f of failed) console.log(`seed-demo: could not import ${f.file}`);
    const usage = await seedDemoUsage(db, getBlobStore(), { dataDir: dataDir() });
    console.log(
      `seed-demo: usage log ${usage.outcome.status}${usage.outcome.status === "imported" ? ` (${usage.outcome.rows} calls, ${usage.outcome.slots} slots)` : ""}`,
    );
  } finally {
    await db.$disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(`seed-demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
