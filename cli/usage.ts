/**
 * One usage line per `tracefold` command, apart from the commands themselves so that `tracefold
 * --help` and a usage error load no command module: the database commands load Prisma, which a
 * plain `npm install` has not generated yet (issue 18).
 */
export const inspectUsage =
  "tracefold inspect <file|dir>... [--format F] [--tokenizer o200k|cl100k|chars4|chars3] [--json]";

export const importUsage =
  "tracefold import <file|dir>... [--format F] [--tokenizer ID] [--no-redact] [--json]";

export const redactUsage =
  "tracefold redact <file|dir>... --dry-run [--emails] [--disable KIND[,KIND]]... [--allow VALUE|/REGEX/]... [--json]";

export const policiesUsage =
  "tracefold policies [--json]";

export const compactUsage =
  "tracefold compact <file> --policy ID [--session N|ID] [--cut K] [--window TOKENS] [--param name=value]... [--format F] [--tokenizer ID] [--json]";

export const onlineUsage =
  "tracefold online <file> [--assign column:NAME|email-pivot:CHAR|hash:SALT] [--window HH:MM-HH:MM] [--tz ZONE] [--map field=column]... [--surface S]... [--volatile START/END]... [--rollout TIME] [--prices input=3,cachedInput=0.3,cacheWrite=3.75,output=15] [--format csv|jsonl] [--seed N] [--json]";

export const backupUsage =
  "tracefold backup --out FILE.tar.gz";

export const restoreUsage =
  "tracefold restore FILE.tar.gz [--force]";

export const simulateUsage =
  "tracefold simulate <file|dir>... --policy ID [--trigger 0.9|90%] [--window TOKENS] [--param name=value]... [--prices input=3,cachedInput=0.3,cacheWrite=3.75,output=15] [--format F] [--tokenizer ID] [--json]";

export const storageUsage =
  "tracefold storage sweep [--dry-run] [--grace-minutes N] [--json]";

export const reviewUsage =
  "tracefold review import-gold GOLD.jsonl [--name N] [--overlap K] [--json] | tracefold review export-gold QUEUE_ID [--out FILE]";
export const keysUsage =
  "tracefold keys create --name N --scope ingest|read [--json] | tracefold keys list [--json] | tracefold keys revoke ID [--json]";

export const pushUsage = "tracefold push <file|dir>... --to URL --key KEY [--state FILE] [--json]";

export const retentionUsage = "tracefold retention --older-than 30d|12h|90m [--dry-run] [--json]";
