import { UsageError } from "./args";
import { backupUsage, restoreUsage, runBackup, runRestore } from "./commands/backup";
import { importUsage, runImport } from "./commands/import";
import { inspectUsage, runInspect } from "./commands/inspect";
import { compactUsage, runCompact } from "./commands/compact";
import { evalUsage, runEval } from "./commands/eval";
import { onlineUsage, runOnline } from "./commands/online";
import { policiesUsage, runPolicies } from "./commands/policies";
import { redactUsage, runRedact } from "./commands/redact";
import { reviewUsage, runReview } from "./commands/review";
import { runSimulate, simulateUsage } from "./commands/simulate";
import { runStorage, storageUsage } from "./commands/storage";

/** `tracefold <command>`: the command-line face of lib/ (and server/ for database work). */
const COMMANDS: Record<string, { usage: string; run: (argv: string[]) => Promise<number> }> = {
  inspect: { usage: inspectUsage, run: runInspect },
  import: { usage: importUsage, run: runImport },
  redact: { usage: redactUsage, run: runRedact },
  policies: { usage: policiesUsage, run: runPolicies },
  compact: { usage: compactUsage, run: runCompact },
  eval: { usage: evalUsage, run: runEval },
  online: { usage: onlineUsage, run: runOnline },
  backup: { usage: backupUsage, run: runBackup },
  restore: { usage: restoreUsage, run: runRestore },
  simulate: { usage: simulateUsage, run: runSimulate },
  storage: { usage: storageUsage, run: runStorage },
  review: { usage: reviewUsage, run: runReview },
};

function usage(): string {
  return ["usage:", ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`tracefold: unknown command ${JSON.stringify(name)}\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`tracefold ${name}: ${error.message}\nusage: ${command.usage}`);
      return 2;
    }
    console.error(`tracefold ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

// `tracefold inspect … | head` closes the pipe early: that is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
