/**
 * Whether an archive made before a migration can still be restored after it. A restore accepts an
 * older archive only when every migration it lacks is declared here as "additive": it adds an
 * index, a table (restored empty) or a column that is nullable or has a default, and changes no
 * existing row. Anything else is "breaks-older-archives" (such an archive is restored with the
 * version that made it, then upgraded).
 *
 * Backups first shipped with 0009_suite_filters (commit e0ecf8e added backup and 0006–0009 at
 * once), so every archive lists 0001–0009: those are the baseline and need no verdict. Every later
 * migration must have one — tests/unit/backup/migration-verdicts.test.ts fails on a migration
 * directory without a verdict, and checks each additive verdict against its SQL on both engines.
 */
export type MigrationVerdict =
  | {
      name: string;
      restore: "additive";
      /** Why existing rows are unchanged, shown nowhere but read by whoever adds the next one. */
      reason: string;
      /** Models whose tables the migration creates: restored empty from an archive without it. */
      tables?: string[];
      /** `Model.field` columns it adds; each must be nullable or have a default in schema.prisma. */
      columns?: string[];
      /**
       * `Model.field` columns whose NOT NULL it drops (every archived row has a value, and a value
       * stays allowed). PostgreSQL says `ALTER COLUMN … DROP NOT NULL`; SQLite cannot, so Prisma
       * redefines the table (create `new_T`, copy every column, drop `T`, rename): accepted when every
       * column of the new table is copied or declared added.
       */
      relaxed?: string[];
    }
  | { name: string; restore: "breaks-older-archives"; reason: string };

/** The newest migration every archive holds (the first release with backups). */
export const BASELINE_MIGRATION = "0009_suite_filters";

export const MIGRATION_VERDICTS: readonly MigrationVerdict[] = [
  { name: "0010_label_recency", restore: "additive", reason: "index only (ReviewLabelRow queueId, savedAt)" },
  {
    name: "0011_compaction_jobs",
    restore: "additive",
    reason: "new table CompactionJob (its indexes, its foreign key to TraceSession)",
    tables: ["CompactionJob"],
  },
  {
    name: "0012_message_records",
    restore: "additive",
    reason: "nullable column TraceMessage.records (null: the message is one source record, true of every message imported before it)",
    columns: ["TraceMessage.records"],
  },
  {
    name: "0013_eval_budgets",
    restore: "additive",
    reason:
      "nullable EvalResult columns (budget, targetTokens, netPruneRate, restores, restoreTokens, visibleNoImpact, restorableNoImpact, byKind) and an index: archived results are units at their policy's own settings, read with those figures absent",
    columns: ["budget", "targetTokens", "netPruneRate", "restores", "restoreTokens", "visibleNoImpact", "restorableNoImpact", "byKind"].map(
      (f) => `EvalResult.${f}`,
    ),
  },
  {
    name: "0014_review_queue_options",
    restore: "additive",
    reason:
      "nullable columns ReviewQueue.policyA/policyB/cuts/sampleSize/sampledFrom (null: every pair, disagreements, no sample — what every queue made before it held) and ReviewQueue.blind defaulting to false (earlier queues showed the judge's answer at once)",
    columns: ["ReviewQueue.policyA", "ReviewQueue.policyB", "ReviewQueue.cuts", "ReviewQueue.sampleSize", "ReviewQueue.sampledFrom", "ReviewQueue.blind"],
  },
  {
    name: "0015_calibration_queues",
    restore: "additive",
    reason:
      "ReviewQueue.runId may be null (calibration queues have no run; every archived queue has one), nullable ReviewQueue.sourceSha256 with a plain index (null: not imported from a gold file) and nullable ReviewItem.unit (null: an item built from a run)",
    columns: ["ReviewQueue.sourceSha256", "ReviewItem.unit"],
    relaxed: ["ReviewQueue.runId"],
  },
  {
    name: "0016_eval_run_models",
    restore: "additive",
    reason:
      "nullable columns EvalRun.plannerModel/judgeModel/llmUsage (null: the models and usage were not recorded, which the run page says — true of every run made before it)",
    columns: ["EvalRun.plannerModel", "EvalRun.judgeModel", "EvalRun.llmUsage"],
  },
  {
    name: "0017_api_keys",
    restore: "additive",
    reason: "new tables ApiKey and ApiKeyUsage: an older archive had no keys, so none are restored (admins create new ones)",
    tables: ["ApiKey", "ApiKeyUsage"],
  },
  {
    name: "0018_otlp_spans",
    restore: "additive",
    reason: "new table OtlpSpan: an older archive had no OTLP spans; sessions built from spans are restored with their uploads",
    tables: ["OtlpSpan"],
  },
  {
    name: "0019_rollout_runs",
    restore: "additive",
    reason: "new tables RolloutRun and RolloutRunSession: an older archive had no rollout runs, so none are restored",
    tables: ["RolloutRun", "RolloutRunSession"],
  },
  {
    name: "0020_otlp_dirty_sessions",
    restore: "additive",
    reason: "new table OtlpDirtySession: an older archive rebuilt every OTLP session inside its request, so none was left dirty",
    tables: ["OtlpDirtySession"],
  },
  {
    name: "0021_rollout_llm_replies",
    restore: "additive",
    reason:
      "nullable column RolloutRunSession.llmReplies: an older archive's rollout sessions recorded no planner answers, so their self-gc call views under the LLM planner stay unavailable, as before",
    columns: ["RolloutRunSession.llmReplies"],
  },
];

/** Migration directory names newer than the baseline that have no verdict: each needs a decision. */
export function migrationsWithoutVerdict(names: readonly string[], verdicts: readonly MigrationVerdict[] = MIGRATION_VERDICTS): string[] {
  return names.filter((name) => name > BASELINE_MIGRATION && !verdicts.some((v) => v.name === name));
}

/**
 * Why `sql` (one engine's migration.sql) is not the additive change `verdict` declares, one entry
 * per problem; empty when it is. `tableOf` maps a model to its table name. Accepted statements:
 * CREATE TABLE of a declared table; CREATE INDEX (UNIQUE only on a declared table, as a unique
 * index could refuse archived rows); ADD CONSTRAINT … FOREIGN KEY on a declared table; ADD COLUMN
 * of a declared column that is nullable or has a DEFAULT. Every declared table and column must be
 * created by the SQL.
 */
export function additiveSqlProblems(
  verdict: Extract<MigrationVerdict, { restore: "additive" }>,
  sql: string,
  tableOf: (model: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  const tables = new Set((verdict.tables ?? []).map((m) => tableOf(m) ?? `(unknown model ${m})`));
  const columns = new Set(
    (verdict.columns ?? []).map((c) => {
      const [m, f] = c.split(".");
      return `${tableOf(m!) ?? `(unknown model ${m})`}.${f}`;
    }),
  );
  const relaxed = new Set(
    (verdict.relaxed ?? []).map((c) => {
      const [m, f] = c.split(".");
      return `${tableOf(m!) ?? `(unknown model ${m})`}.${f}`;
    }),
  );
  const redefined = new Map<string, { columns: Map<string, string>; copied?: Set<string>; dropped?: boolean }>();
  const seen = new Set<string>();
  const statements = sql
    .replace(/--.*$/gm, "")
    .split(";")
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  for (const statement of statements) {
    let m: RegExpExecArray | null;
    if (/^PRAGMA (defer_foreign_keys|foreign_keys)=(ON|OFF)$/i.test(statement)) continue;
    if ((m = /^CREATE TABLE "new_(\w+)" \((.*)\)$/i.exec(statement)) && [...relaxed].some((c) => c.startsWith(`${m![1]}.`))) {
      const columns = new Map<string, string>();
      for (const line of m[2]!.split(/,\s*(?=")/)) {
        const column = /^"(\w+)" (.*)$/.exec(line.trim());
        if (!column || /\bCONSTRAINT\b|\bREFERENCES\b/i.test(column[2]!))
          problems.push(`redefines ${m[1]} with a part a restore cannot check: ${line.trim().slice(0, 60)}`);
        else columns.set(column[1]!, column[2]!);
      }
      redefined.set(m[1]!, { columns });
    } else if (
      (m = /^INSERT INTO "new_(\w+)" \(([^)]*)\) SELECT (.*) FROM "(\w+)"$/i.exec(statement)) &&
      redefined.has(m[1]!) &&
      m[1] === m[4] &&
      m[2] === m[3]
    ) {
      redefined.get(m[1]!)!.copied = new Set(m[2]!.split(",").map((c) => c.trim().replace(/"/g, "")));
    } else if ((m = /^DROP TABLE "(\w+)"$/i.exec(statement)) && redefined.get(m[1]!)?.copied) {
      redefined.get(m[1]!)!.dropped = true;
    } else if ((m = /^ALTER TABLE "new_(\w+)" RENAME TO "(\w+)"$/i.exec(statement)) && m[1] === m[2] && redefined.get(m[1]!)?.dropped) {
      problems.push(...redefinitionProblems(m[1]!, redefined.get(m[1]!)!, columns, relaxed, seen));
    } else if ((m = /^ALTER TABLE "(\w+)" ALTER COLUMN "(\w+)" DROP NOT NULL$/i.exec(statement))) {
      if (relaxed.has(`${m[1]}.${m[2]}`)) seen.add(`${m[1]}.${m[2]}`);
      else problems.push(`drops NOT NULL on ${m[1]}.${m[2]} without declaring it relaxed`);
    } else if ((m = /^CREATE TABLE "(\w+)"/i.exec(statement))) {
      if (tables.has(m[1]!)) seen.add(m[1]!);
      else problems.push(`creates table ${m[1]} without declaring it`);
    } else if ((m = /^CREATE (UNIQUE )?INDEX "\w+" ON "(\w+)"/i.exec(statement))) {
      if (m[1] && !tables.has(m[2]!)) problems.push(`adds a unique index on existing table ${m[2]}, which archived rows may violate`);
    } else if ((m = /^ALTER TABLE "(\w+)" ADD CONSTRAINT "\w+" FOREIGN KEY/i.exec(statement))) {
      if (!tables.has(m[1]!)) problems.push(`adds a foreign key on existing table ${m[1]}, which archived rows may violate`);
    } else if ((m = /^ALTER TABLE "(\w+)" (ADD COLUMN .*)$/i.exec(statement))) {
      // PostgreSQL migrations add several columns in one statement: `ADD COLUMN "a" …, ADD COLUMN "b" …`.
      for (const clause of m[2]!.split(/,\s*(?=ADD COLUMN\b)/i)) {
        const added = /^ADD COLUMN "(\w+)" (.*)$/i.exec(clause.trim());
        // Anything after the column's type and options (`, DROP COLUMN …`) is another change: refused.
        if (!added || added[2]!.replace(/\([^)]*\)/g, "").includes(",")) {
          problems.push(`statement is not one a restore can treat as additive: ${statement.slice(0, 80)}`);
          continue;
        }
        const column = `${m[1]}.${added[1]}`;
        if (!columns.has(column)) problems.push(`adds column ${column} without declaring it`);
        else if (/\bNOT NULL\b/i.test(added[2]!) && !/\bDEFAULT\b/i.test(added[2]!)) problems.push(`adds column ${column} NOT NULL without a DEFAULT`);
        else seen.add(column);
      }
    } else {
      problems.push(`statement is not one a restore can treat as additive: ${statement.slice(0, 80)}`);
    }
  }
  for (const name of [...tables, ...columns]) if (!seen.has(name)) problems.push(`declares ${name}, which its SQL does not create`);
  for (const name of relaxed) if (!seen.has(name)) problems.push(`declares ${name} relaxed, which its SQL does not do`);
  for (const [table, r] of redefined) if (!r.dropped) problems.push(`creates new_${table} without copying every row into it and replacing ${table}`);
  return problems;
}

/**
 * A SQLite table redefinition (new_T created, rows copied, T dropped, new_T renamed to T) is
 * additive when every column of the new table was copied from the old one or is a declared added
 * column (nullable or with a default), and each declared relaxed column is there without NOT NULL.
 */
function redefinitionProblems(
  table: string,
  r: { columns: Map<string, string>; copied?: Set<string> },
  declared: ReadonlySet<string>,
  relaxed: ReadonlySet<string>,
  seen: Set<string>,
): string[] {
  const problems: string[] = [];
  for (const [column, definition] of r.columns) {
    const name = `${table}.${column}`;
    if (r.copied!.has(column)) {
      if (relaxed.has(name)) {
        if (/\bNOT NULL\b/i.test(definition)) problems.push(`declares ${name} relaxed, but the redefined table keeps it NOT NULL`);
        else seen.add(name);
      }
    } else if (!declared.has(name)) problems.push(`adds column ${name} without declaring it`);
    else if (/\bNOT NULL\b/i.test(definition) && !/\bDEFAULT\b/i.test(definition)) problems.push(`adds column ${name} NOT NULL without a DEFAULT`);
    else seen.add(name);
  }
  for (const column of r.copied!) if (!r.columns.has(column)) problems.push(`copies ${table}.${column} into a table without it`);
  return problems;
}
