import { z } from "zod";

/**
 * Every environment variable Tracefold reads: its default, what it means and its check. The
 * settings tables of docs/configuration.md are checked against this list by a test (tests/unit/config), and
 * checkEnvironment() validates every variable that is set, once, at start-up. Families whose
 * members are validated by their owner's parser as a whole (the S3 settings, the LLM endpoints)
 * are listed with a `*`.
 */
export interface Variable {
  name: string;
  /** The default as a person would write it; "" when unset means off or none. */
  default: string;
  meaning: string;
  /** A check of the raw text; absent for free text (a path, a URL checked where it is used). */
  check?: z.ZodType<unknown, string>;
  /** Never echoed in an error message. */
  secret?: boolean;
}

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, max === Number.MAX_SAFE_INTEGER ? `must be at least ${min}` : `must be from ${min} to ${max}`);
const positiveNumber = z
  .string()
  .trim()
  .regex(/^\d*\.?\d+$/, "must be a number")
  .transform(Number)
  .refine((n) => n > 0, "must be above 0");
const nonNegativeNumber = z
  .string()
  .trim()
  .regex(/^\d*\.?\d+$/, "must be a number (0 or more)")
  .transform(Number);
const flag = z.enum(["1", "0", "true", "false"], { error: "must be 1, 0, true or false" });

export const VARIABLES: readonly Variable[] = [
  {
    name: "DATABASE_URL",
    default: "file:./data/tracefold.db",
    meaning: "SQLite file, or postgresql://… for a team server",
    check: z.string().regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: or postgresql://"),
    secret: true,
  },
  { name: "TRACEFOLD_DATA_DIR", default: "./data", meaning: "raw uploads, sidecars and temp files on local disk" },
  { name: "TRACEFOLD_STORAGE", default: "local", meaning: "local disk, or s3 for an S3-compatible bucket (checked with TRACEFOLD_S3_*)" },
  { name: "TRACEFOLD_S3_*", default: "", meaning: "the S3 endpoint, bucket, region, credentials and addressing (checked together when TRACEFOLD_STORAGE=s3)" },
  { name: "NEXTAUTH_SECRET", default: "generated into data/.nextauth-secret", meaning: "session signing key", secret: true },
  { name: "NEXTAUTH_URL", default: "http://localhost:3000", meaning: "public URL of the studio", check: z.url({ error: "must be a URL" }) },
  { name: "TRACEFOLD_SECRET_KEY", default: "NEXTAUTH_SECRET", meaning: "key the stored LLM API keys are encrypted with", secret: true },
  { name: "TRACEFOLD_ALLOWED_ORIGINS", default: "", meaning: "more origins accepted on mutating requests (comma-separated)" },
  { name: "TRACEFOLD_MAX_UPLOAD_MB", default: "512", meaning: "largest accepted upload", check: positiveNumber },
  {
    name: "TRACEFOLD_MAX_ARCHIVE_RATIO",
    default: "200",
    meaning: "largest expansion of a gzip or .eval upload past 16 MB (zip-bomb limit)",
    check: positiveNumber,
  },
  { name: "TRACEFOLD_UPLOADS_PER_MINUTE", default: "120", meaning: "uploads one user may start per minute", check: wholeNumber(1) },
  { name: "TRACEFOLD_ASYNC_IMPORT_MB", default: "32", meaning: "larger uploads are imported by a worker job (0: all)", check: nonNegativeNumber },
  {
    name: "TRACEFOLD_OTLP_SYNC_SPANS",
    default: "64",
    meaning: "an OTLP session of at most this many spans is rebuilt inside the request; a longer one right after it, coalesced (0: always after)",
    check: wholeNumber(0),
  },
  {
    name: "TRACEFOLD_OTLP_REBUILD_MS",
    default: "1000",
    meaning: "least pause between two rebuilds of one long OTLP session (at least twice its last rebuild's time)",
    check: wholeNumber(0),
  },
  { name: "TRACEFOLD_KEY_RATE_LIMIT", default: "600", meaning: "requests one API key may make per minute", check: wholeNumber(1) },
  { name: "TRACEFOLD_SIGNIN_MAX_FAILURES", default: "5", meaning: "failed sign-ins per account and IP in the window", check: wholeNumber(1) },
  { name: "TRACEFOLD_SIGNIN_MAX_FAILURES_PER_IP", default: "50", meaning: "failed sign-ins per IP in the window", check: wholeNumber(1) },
  { name: "TRACEFOLD_SIGNIN_MAX_FAILURES_PER_ACCOUNT", default: "100", meaning: "failed sign-ins per account in the window", check: wholeNumber(1) },
  { name: "TRACEFOLD_SIGNIN_WINDOW_MINUTES", default: "15", meaning: "the sign-in throttle's window", check: wholeNumber(1) },
  { name: "TRACEFOLD_JUDGE_CALIBRATION", default: "gold/judge-calibration.json", meaning: "the judge's calibration report shown beside its figures" },
  { name: "TRACEFOLD_INPROCESS_WORKER", default: "on for SQLite, off for PostgreSQL", meaning: "whether a studio server also runs jobs", check: flag },
  { name: "TRACEFOLD_JOB_POLL_MS", default: "1000", meaning: "idle poll interval of a worker", check: wholeNumber(1) },
  { name: "TRACEFOLD_JOB_SWEEP_MS", default: "30000", meaning: "period of the sweep for orphaned work", check: wholeNumber(1) },
  { name: "TRACEFOLD_RUN_STALE_MS", default: "120000", meaning: "heartbeat age after which another worker takes a run or import", check: wholeNumber(1) },
  {
    name: "TRACEFOLD_TEMP_SWEEP_MS",
    default: "600000",
    meaning: "how often abandoned temp files are removed (0: at start-up and before uploads only)",
    check: wholeNumber(0),
  },
  { name: "TRACEFOLD_BLOB_SWEEP_MS", default: "3600000", meaning: "period of the unreferenced-blob sweep (0: off)", check: wholeNumber(0) },
  { name: "TRACEFOLD_BLOB_SWEEP_GRACE_MINUTES", default: "60", meaning: "age below which an unreferenced blob is kept", check: nonNegativeNumber },
  { name: "TRACEFOLD_WORKER_IMPORT_CONCURRENCY", default: "1", meaning: "imports one worker runs at once", check: wholeNumber(1) },
  { name: "TRACEFOLD_WORKER_EVAL_CONCURRENCY", default: "1", meaning: "evaluation runs one worker runs at once", check: wholeNumber(1) },
  { name: "TRACEFOLD_WORKER_COMPACT_CONCURRENCY", default: "2", meaning: "LLM compactions one worker runs at once", check: wholeNumber(1) },
  { name: "TRACEFOLD_WORKER_STOP_TIMEOUT_MS", default: "30000", meaning: "on SIGTERM, how long the current unit may finish", check: wholeNumber(1) },
  { name: "TRACEFOLD_LLM_CONCURRENCY", default: "4", meaning: "units of an LLM-judged evaluation in flight", check: wholeNumber(1, 64) },
  { name: "TRACEFOLD_LLM_*", default: "", meaning: "the default LLM endpoint and each purpose's (TRACEFOLD_LLM_<PURPOSE>_*), checked by the LLM layer" },
  { name: "TRACEFOLD_API_KEY", default: "", meaning: "tracefold push: the API key when --key is not given", secret: true },
];

/**
 * Read by the tooling around the app — the build (next.config.ts), benchmarks and tests — never by
 * the running studio, workers or CLI; documented here so the README's mentions of them are too.
 */
export const TOOLING_VARIABLES: readonly Pick<Variable, "name" | "meaning">[] = [
  { name: "TRACEFOLD_NEXT_DIST_DIR", meaning: "build: Next's output directory (the benchmarks build beside the studio)" },
  { name: "TRACEFOLD_TSCONFIG", meaning: "build: the tsconfig Next type-checks with" },
  { name: "TRACEFOLD_TRACES_DIR", meaning: "tests: where the shared real traces are (default ../shared/traces)" },
  { name: "TRACEFOLD_TRACES_NEW_DIR", meaning: "tests: where the newer shared traces are (default ../shared/traces-new)" },
  { name: "TRACEFOLD_TEST_PG_URL", meaning: "tests: the PostgreSQL server the integration tests use" },
];

/** The variable a name belongs to: itself, or the family its prefix names. */
export function variableOf(name: string): Variable | undefined {
  return VARIABLES.find((v) => v.name === name) ?? VARIABLES.find((v) => v.name.endsWith("*") && name.startsWith(v.name.slice(0, -1)));
}
