import { defineCommand } from "./command-spec";

/**
 * Every `tracefold` command's synopsis, summary, options and exit codes, apart from the commands
 * themselves so that `tracefold --help`, `tracefold <command> --help` and a usage error load no
 * command module: the database commands load Prisma, which a plain `npm install` may not have
 * generated (issue 18). Each command parses its argv with the `options` defined here, so the help
 * cannot list an option the parser refuses, nor miss one it accepts.
 */
const FORMAT = "trace format instead of auto-detection (see tracefold inspect)";
const TOKENIZER = "token counter: o200k (default), cl100k, chars4 or chars3";
const JSON_OUT = "print exactly one JSON object on stdout (progress and errors stay on stderr)";
const PRICES = "$ per million tokens: input=3,cachedInput=0.3,cacheWrite=3.75,output=15";

export const inspectCommand = defineCommand({
  synopsis: "tracefold inspect <file|dir>... [--format F] [--tokenizer ID] [--json]",
  summary: "Reads trace files and prints each session's messages, tool calls and tokens.",
  options: {
    format: { type: "string", value: "F", help: FORMAT },
    tokenizer: { type: "string", value: "ID", help: TOKENIZER },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0 every file read; 1 some file could not be read (each named with line and field); 2 bad command line",
});

export const importCommand = defineCommand({
  synopsis: "tracefold import <file|dir>... [--format F] [--tokenizer ID] [--no-redact] [--json]",
  summary: "Imports trace files into the studio's database (redacted like uploads), one transaction per file.",
  options: {
    format: { type: "string", value: "F", help: FORMAT },
    tokenizer: { type: "string", value: "ID", help: TOKENIZER },
    "no-redact": { type: "boolean", default: false, help: "store the files unredacted (the studio's redaction rules are skipped)" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0 every file imported (or already there); 1 some file failed, nothing of it written; 2 bad command line",
});

export const redactCommand = defineCommand({
  synopsis: "tracefold redact <file|dir>... --dry-run [--emails] [--disable KIND[,KIND]]... [--allow VALUE|/REGEX/]... [--json]",
  summary: "Shows what the upload redaction would replace in each file, without changing anything.",
  options: {
    "dry-run": { type: "boolean", default: false, help: "required: report only (redaction itself happens on upload and import)" },
    emails: { type: "boolean", default: false, help: "also redact e-mail addresses" },
    disable: { type: "string", multiple: true, default: [], value: "KIND[,KIND]", help: "turn rules off by kind" },
    allow: { type: "string", multiple: true, default: [], value: "VALUE|/REGEX/", help: "never redact this value or pattern" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0 nothing would be redacted; 1 something would; 2 bad command line",
});

export const policiesCommand = defineCommand({
  synopsis: "tracefold policies [--json]",
  summary: "Lists the compaction policies with their parameters and defaults.",
  options: {
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0; 2 bad command line",
});

export const compactCommand = defineCommand({
  synopsis: "tracefold compact <file> --policy ID [--session N|ID] [--cut K] [--window TOKENS] [--param name=value]... [--format F] [--tokenizer ID] [--json]",
  summary: "Replays one policy at one cut of a session and prints the compacted view beside the original.",
  options: {
    policy: { type: "string", value: "ID", help: "the policy to run (see tracefold policies)" },
    session: { type: "string", value: "N|ID", help: "the session: its position in the file (0-based) or its id; default 0" },
    cut: { type: "string", value: "K", help: "cut after message K (1 to the session's length); default the policy's own choice" },
    window: { type: "string", value: "TOKENS", help: "the context window the policy compacts for" },
    param: { type: "string", multiple: true, value: "name=value", help: "a policy parameter" },
    format: { type: "string", value: "F", help: FORMAT },
    tokenizer: { type: "string", value: "ID", help: TOKENIZER },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0 compacted; 1 the file or the cut could not be read; 2 bad command line",
});

export const evalCommand = defineCommand({
  synopsis:
    "tracefold eval <file|dir>... [--policies all|ID,ID] [--judge dependency|llm] [--planner rule-based|llm] [--suite all|hard] [--filter KEY=VALUE,...] [--trigger 0.9] [--cut-levels 50,70,90] [--pointers semantic|plain] [--sweep 20,40,60] [--match POLICY] [--sensitivity] [--export-views FILE.jsonl] [--calibrate GOLD.jsonl] [--compare A,B] [--by workload|format] [--format F] [--tokenizer ID] [--concurrency N] [--json]",
  summary: "Replays policies at the cuts of every session and judges each view against the real future.",
  options: {
    policies: { type: "string", default: "all", value: "all|ID,ID", help: "the policies to evaluate" },
    judge: { type: "string", default: "dependency", value: "dependency|llm", help: "the deterministic dependency judge, or an LLM judge (needs an endpoint)" },
    planner: { type: "string", default: "rule-based", value: "rule-based|llm", help: "self-gc's planner: the rules, or a model (needs an endpoint)" },
    suite: { type: "string", default: "all", value: "all|hard", help: "every session, or the Hard Set ranked from them" },
    filter: { type: "string", value: "KEY=VALUE,...", help: "narrow the sessions (e.g. minMessages=200,format=claude_code_jsonl)" },
    trigger: { type: "string", default: "0.9", value: "SHARE", help: "share of the window the prefix fills at a cut (above 0, at most 1)" },
    "cut-levels": { type: "string", default: "50,70,90", value: "P,P,...", help: "token shares (percent, ascending) each session is cut at" },
    pointers: { type: "string", default: "semantic", value: "semantic|plain", help: "the harness's pointer text for every fold of every policy" },
    sweep: { type: "string", value: "P,P,...", help: "also run every policy at these target shares of the prefix removed" },
    match: { type: "string", value: "POLICY", help: "also compact every policy to the view size POLICY reached at each cut" },
    sensitivity: { type: "boolean", default: false, help: "rank the policies under judge variants too" },
    "export-views": { type: "string", value: "FILE.jsonl", help: "write every judged view with its verdicts (docs/views.schema.json)" },
    calibrate: { type: "string", value: "GOLD.jsonl", help: "measure the judge's agreement with a labelled gold set" },
    compare: { type: "string", value: "A,B", help: "paired comparison of two policies" },
    by: { type: "string", value: "workload|format", help: "add a breakdown by the session's workload or trace format" },
    format: { type: "string", value: "F", help: FORMAT },
    tokenizer: { type: "string", value: "ID", help: TOKENIZER },
    concurrency: { type: "string", default: "4", value: "N", help: "LLM calls in flight (1 to 64)" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0 every file loaded and judged; 1 some file failed to load, the filter selected nothing, or the judge failed; 2 bad command line",
});

export const onlineCommand = defineCommand({
  synopsis:
    "tracefold online <file> [--assign column:NAME|email-pivot:CHAR|hash:SALT] [--window HH:MM-HH:MM] [--tz ZONE] [--map field=column]... [--surface S]... [--volatile START/END]... [--rollout TIME] [--prices LIST] [--format csv|jsonl] [--seed N] [--iterations N] [--json]",
  summary: "Estimates an online A/B's input-token reduction from a usage log of production calls.",
  options: {
    assign: { type: "string", value: "RULE", help: "how accounts split into groups: column:NAME, email-pivot:CHAR or hash:SALT" },
    window: { type: "string", value: "HH:MM-HH:MM", help: "only calls in this daily window" },
    tz: { type: "string", default: "UTC", value: "ZONE", help: "the window's time zone (IANA name)" },
    map: { type: "string", multiple: true, value: "field=column", help: "read a field from a differently named column" },
    surface: { type: "string", multiple: true, value: "S", help: "only calls from this surface" },
    volatile: { type: "string", multiple: true, value: "START/END", help: "leave out a period" },
    rollout: { type: "string", value: "TIME", help: "when the policy shipped: adds the difference-in-differences estimate" },
    prices: { type: "string", value: "LIST", help: PRICES },
    format: { type: "string", value: "csv|jsonl", help: "the log's format instead of detection by extension" },
    seed: { type: "string", default: "1", value: "N", help: "seed of the bootstrap" },
    iterations: { type: "string", default: "2000", value: "N", help: "bootstrap iterations of the interval" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0; 1 some rows could not be read, no call is left, or a group is empty; 2 bad command line",
});

export const backupCommand = defineCommand({
  synopsis: "tracefold backup --out FILE.tar.gz",
  summary: "Writes the studio's database and stored files to one archive.",
  options: {
    out: { type: "string", value: "FILE.tar.gz", help: "the archive to write" },
  },
  exits: "0 written; 1 the database or the store failed; 2 bad command line",
});

export const restoreCommand = defineCommand({
  synopsis: "tracefold restore FILE.tar.gz [--force]",
  summary: "Restores a backup archive into an empty studio.",
  options: {
    force: { type: "boolean", default: false, help: "replace a studio that already holds data" },
  },
  exits: "0 restored; 1 the archive is invalid or the studio is not empty; 2 bad command line",
});

export const simulateCommand = defineCommand({
  synopsis:
    "tracefold simulate <file|dir>... --policy ID [--trigger 0.9|90%] [--window TOKENS] [--param name=value]... [--prices LIST] [--format F] [--tokenizer ID] [--json]",
  summary: "Runs one policy through whole sessions and prints the input tokens and cost it would save.",
  options: {
    policy: { type: "string", value: "ID", help: "the policy to run (see tracefold policies)" },
    trigger: { type: "string", value: "0.9|90%", help: "compact when the context fills this share of the window" },
    window: { type: "string", value: "TOKENS", help: "the context window" },
    param: { type: "string", multiple: true, value: "name=value", help: "a policy parameter" },
    prices: { type: "string", value: "LIST", help: PRICES },
    format: { type: "string", value: "F", help: FORMAT },
    tokenizer: { type: "string", value: "ID", help: TOKENIZER },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0; 1 some file could not be read; 2 bad command line",
});

export const rolloutCommand = defineCommand({
  synopsis:
    "tracefold rollout <file|dir>... --policies all|ID,ID [--window TOKENS] [--trigger 0.9|90%] [--prices FILE|model=NAME|input=…,output=…] [--cache-ttl 5m] [--param policy.name=value]... [--planner rule-based|llm] [--hard-limit] [--format F] [--tokenizer ID] [--json]",
  summary:
    "Runs policies through whole sessions as a harness would, judging every step: input tokens and cost saved after caching, restores, lost steps and drift by compaction round.",
  options: {
    policies: { type: "string", value: "all|ID,ID", help: "the policies to run (see tracefold policies)" },
    window: { type: "string", value: "TOKENS", help: "the context window (default: per session, so the trigger first fires at 2/3 of its peak prompt)" },
    trigger: { type: "string", value: "0.9|90%", help: "compact when the context fills this share of the window (policies with a triggerRatio)" },
    prices: {
      type: "string",
      value: "FILE|model=NAME|LIST",
      help: "a JSON price table over the built-in list prices, one model's prices for every session, or input=…,output=…[,cachedInput=…,cacheWrite=…] (USD per million tokens); default: each session's own model, unpriced when unknown",
    },
    "cache-ttl": { type: "string", value: "DURATION", help: "prompt-cache lifetime: 300s, 5m, 1h or none", default: "5m" },
    param: { type: "string", multiple: true, value: "policy.name=value", help: "a policy parameter, e.g. self-gc.targetShare=0.5" },
    planner: {
      type: "string",
      default: "rule-based",
      value: "rule-based|llm",
      help: "self-gc's planner: the rules, or a model (needs an endpoint); its rounds' tokens and cost are reported and billed in cost.with",
    },
    "hard-limit": {
      type: "boolean",
      default: false,
      help: "where a policy's own decision leaves the prompt over the window, the harness asks it to compact to its trigger share of the window (the same target parameter for every policy); hardLimitCommits counts those commits",
    },
    format: { type: "string", value: "F", help: FORMAT },
    tokenizer: { type: "string", value: "ID", help: TOKENIZER },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0; 1 some file could not be read (each named with line and field) or nothing to run; 2 bad command line",
});

export const pushCommand = defineCommand({
  synopsis: "tracefold push <file|dir>... --to URL --key KEY [--state FILE] [--json]",
  summary: "Uploads trace files to a remote studio through its API, resumably.",
  options: {
    to: { type: "string", value: "URL", help: "the studio's address" },
    key: { type: "string", value: "KEY", help: "an API key with the ingest scope (or TRACEFOLD_API_KEY)" },
    state: { type: "string", value: "FILE", help: "where to remember what arrived (default .tracefold-push.<host>.json)" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0 every file imported, duplicate or unchanged; 1 some file failed; 2 bad command line",
});

export const retentionCommand = defineCommand({
  synopsis: "tracefold retention --older-than 30d|12h|90m [--dry-run] [--json]",
  summary: "Deletes sessions, uploads and their files older than an age.",
  options: {
    "older-than": { type: "string", value: "AGE", help: "the age: 30d, 12h or 90m" },
    "dry-run": { type: "boolean", default: false, help: "count what would go, delete nothing" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0; 1 the database failed; 2 bad command line",
});

export const keysCommand = defineCommand({
  synopsis: "tracefold keys create --name N --scope ingest|read [--json] | tracefold keys list [--json] | tracefold keys revoke ID [--json]",
  summary: "Creates (printed once), lists and revokes the studio's API keys.",
  options: {
    name: { type: "string", value: "N", help: "create: the key's name" },
    scope: { type: "string", value: "ingest|read", help: "create: what the key may do" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0; 1 no such key; 2 bad command line",
});

export const storageCommand = defineCommand({
  synopsis: "tracefold storage sweep [--dry-run] [--grace-minutes N] [--json]",
  summary: "Removes stored files no row references any more.",
  options: {
    "dry-run": { type: "boolean", default: false, help: "list what would go, remove nothing" },
    "grace-minutes": { type: "string", value: "N", help: "keep files younger than this (an upload may be in flight)" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0; 1 the store failed; 2 bad command line",
});

export const reviewCommand = defineCommand({
  synopsis: "tracefold review import-gold GOLD.jsonl [--name N] [--overlap K] [--json] | tracefold review export-gold QUEUE_ID [--out FILE]",
  summary: "Imports a gold set as a calibration queue, or exports a queue's labels as a gold set.",
  options: {
    name: { type: "string", value: "N", help: "import-gold: the queue's name" },
    overlap: { type: "string", value: "K", help: "import-gold: reviewers per item (1 to 20)" },
    out: { type: "string", value: "FILE", help: "export-gold: write here instead of stdout" },
    json: { type: "boolean", default: false, help: JSON_OUT },
  },
  exits: "0; 1 a line of the gold file is invalid or its trace is not in the studio (nothing written); 2 bad command line",
});
