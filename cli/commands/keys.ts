import { KeyNameSchema, KeyScopeSchema } from "@/lib/ingest/keys/api-key";
import { getDb } from "@/server/db/client";
import { databaseUrl } from "@/server/db/engine";
import { migrate } from "@/server/db/migrate";
import { createKey } from "@/server/ingest/keys/create-key";
import { listKeys } from "@/server/ingest/keys/list-keys";
import { revokeKey } from "@/server/ingest/keys/revoke-key";
import type { KeyRecord } from "@/server/ingest/keys/key-record";
import { parseCommandArgs, UsageError } from "../args";
import { keysCommand } from "../usage";

/**
 * `tracefold keys create|list|revoke` on the server machine (DATABASE_URL): project API keys for
 * scripts and collectors. `create` prints the key once — only its hash is stored. `--json` prints
 * `{"id","name","scope","key"}` for create, an array of records for list, the record for revoke.
 */
export async function runKeys(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, keysCommand);
  const [sub, ...rest] = positionals;
  if (sub !== "create" && sub !== "list" && sub !== "revoke") throw new UsageError("keys takes a subcommand: create, list or revoke");
  if (sub === "revoke" && rest.length !== 1) throw new UsageError("keys revoke takes one key id (see tracefold keys list)");
  if (sub !== "revoke" && rest.length > 0) throw new UsageError(`keys ${sub} takes no further arguments, got ${JSON.stringify(rest[0])}`);
  const input = sub === "create" ? createInput(values.name, values.scope) : undefined;
  await migrate(databaseUrl());
  const db = getDb();
  try {
    if (input) {
      const created = await createKey(db, input);
      if (values.json) process.stdout.write(`${JSON.stringify({ id: created.id, name: created.name, scope: created.scope, key: created.key })}\n`);
      else
        console.log(
          `created ${created.scope} key ${JSON.stringify(created.name)} (${created.id}):\n${created.key}\nIt is shown only now: store it as a secret.`,
        );
      return 0;
    }
    if (sub === "list") {
      const keys = await listKeys(db);
      if (values.json) process.stdout.write(`${JSON.stringify(keys)}\n`);
      else if (keys.length === 0) console.log("no API keys yet: tracefold keys create --name N --scope ingest|read");
      else for (const key of keys) console.log(describe(key));
      return 0;
    }
    const revoked = await revokeKey(db, rest[0]!);
    if (!revoked) {
      console.error(`tracefold keys: no key with id ${JSON.stringify(rest[0])} (see tracefold keys list)`);
      return 1;
    }
    if (values.json) process.stdout.write(`${JSON.stringify(revoked)}\n`);
    else console.log(`revoked ${describe(revoked)}`);
    return 0;
  } finally {
    await db.$disconnect();
  }
}

function createInput(name: string | undefined, scope: string | undefined) {
  const parsedName = KeyNameSchema.safeParse(name ?? "");
  if (!parsedName.success) throw new UsageError(`--name: ${parsedName.error.issues[0]!.message}`);
  const parsedScope = KeyScopeSchema.safeParse(scope);
  if (!parsedScope.success) throw new UsageError(`--scope: ${parsedScope.error.issues[0]!.message}`);
  return { name: parsedName.data, scope: parsedScope.data };
}

function describe(key: KeyRecord): string {
  const state = key.revokedAt ? `revoked ${key.revokedAt}` : key.lastUsedAt ? `last used ${key.lastUsedAt}` : "never used";
  return `${key.id}  ${key.scope.padEnd(6)}  ${key.prefix}…  ${key.name}  (created ${key.createdAt}, ${state})`;
}
