import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import {
  additiveSqlProblems,
  BASELINE_MIGRATION,
  MIGRATION_VERDICTS,
  migrationsWithoutVerdict,
  type MigrationVerdict,
} from "../../../server/backup/migration-verdicts";
import { planArchiveUpgrade } from "../../../server/backup/plan-archive-upgrade";
import { readSchemaModels } from "../../../server/backup/schema-models";
import { ArchiveError } from "../../../server/backup/tar-reader";

const MIGRATIONS = resolve(__dirname, "../../../prisma/migrations");
const ENGINES = ["sqlite", "postgres"] as const;
const MODELS = readSchemaModels(resolve(__dirname, "../../.."));
const tableOf = (model: string) => MODELS.find((m) => m.name === model)?.table;
const namesOf = (engine: string) => readdirSync(join(MIGRATIONS, engine)).sort();
const LOCAL = namesOf("sqlite");
const AT_BASELINE = LOCAL.slice(0, LOCAL.indexOf(BASELINE_MIGRATION) + 1);
const ALL_TABLES = new Set(MODELS.map((m) => m.name));
/** Tables created by migrations after the baseline (an archive at the baseline has none of them). */
const LATER_TABLES = MIGRATION_VERDICTS.flatMap((v) => (v.restore === "additive" ? (v.tables ?? []) : []));
const AT_BASELINE_TABLES = new Set([...ALL_TABLES].filter((t) => !LATER_TABLES.includes(t)));

describe("the declared restore verdicts stay honest", () => {
  test("both engines have the same migrations, and the baseline is one of them", () => {
    assert.deepEqual(namesOf("postgres"), LOCAL);
    assert.ok(LOCAL.includes(BASELINE_MIGRATION));
  });

  test("every migration after the baseline is declared additive or breaks-older-archives (add a verdict to server/backup/migration-verdicts.ts)", () => {
    assert.deepEqual(migrationsWithoutVerdict(LOCAL), []);
    for (const verdict of MIGRATION_VERDICTS) assert.ok(LOCAL.includes(verdict.name), `${verdict.name} has a verdict but no migration directory`);
    assert.deepEqual(migrationsWithoutVerdict([...LOCAL, "0012_next_feature"]), ["0012_next_feature"], "a new migration without a verdict is caught");
    assert.deepEqual(migrationsWithoutVerdict(["0005_redaction"]), [], "baseline migrations need none");
  });

  for (const verdict of MIGRATION_VERDICTS.filter((v): v is Extract<MigrationVerdict, { restore: "additive" }> => v.restore === "additive")) {
    for (const engine of ENGINES) {
      test(`${verdict.name} on ${engine} is additive as declared (${verdict.reason})`, () => {
        const sql = readFileSync(join(MIGRATIONS, engine, verdict.name, "migration.sql"), "utf8");
        assert.deepEqual(additiveSqlProblems(verdict, sql, tableOf), []);
      });
    }
  }

  test("the SQL check catches what an additive verdict must not hide", () => {
    const bare = { name: "0099_x", restore: "additive" as const, reason: "test" };
    const cases: [MigrationVerdict & { restore: "additive" }, string, RegExp][] = [
      [bare, `CREATE TABLE "Extra" ("id" TEXT NOT NULL PRIMARY KEY);`, /creates table Extra without declaring it/],
      [bare, `ALTER TABLE "ReviewItem" ADD COLUMN "note" TEXT;`, /adds column ReviewItem\.note without declaring it/],
      [{ ...bare, columns: ["ReviewItem.note"] }, `ALTER TABLE "ReviewItem" ADD COLUMN "note" TEXT NOT NULL;`, /NOT NULL without a DEFAULT/],
      [bare, `CREATE UNIQUE INDEX "ReviewItem_x_key" ON "ReviewItem"("cut");`, /unique index on existing table ReviewItem/],
      [
        bare,
        `ALTER TABLE "ReviewItem" ADD CONSTRAINT "f" FOREIGN KEY ("sessionId") REFERENCES "TraceSession"("id");`,
        /foreign key on existing table ReviewItem/,
      ],
      [bare, `UPDATE "ReviewItem" SET "cut" = 0;`, /not one a restore can treat as additive: UPDATE/],
      [bare, `DROP INDEX "x";`, /not one a restore can treat as additive: DROP/],
      [{ ...bare, tables: ["CompactionJob"] }, `CREATE INDEX "i" ON "ReviewItem"("cut");`, /declares CompactionJob, which its SQL does not create/],
    ];
    cases.push(
      [
        bare,
        `ALTER TABLE "ReviewItem" ADD COLUMN "a" TEXT,\nADD COLUMN "b" INTEGER;`,
        /adds column ReviewItem\.a without declaring it[^]*adds column ReviewItem\.b without declaring it/,
      ],
      [
        { ...bare, columns: ["ReviewItem.a", "ReviewItem.b"] },
        `ALTER TABLE "ReviewItem" ADD COLUMN "a" TEXT,\nADD COLUMN "b" INTEGER NOT NULL;`,
        /adds column ReviewItem\.b NOT NULL without a DEFAULT/,
      ],
      [
        { ...bare, columns: ["ReviewItem.a"] },
        `ALTER TABLE "ReviewItem" ADD COLUMN "a" TEXT, DROP COLUMN "cut";`,
        /not one a restore can treat as additive: ALTER TABLE "ReviewItem" ADD COLUMN "a" TEXT, DROP/,
      ],
    );
    for (const [verdict, sql, problem] of cases) assert.match(additiveSqlProblems(verdict, sql, tableOf).join("\n"), problem, sql);
    assert.deepEqual(
      additiveSqlProblems({ ...bare, columns: ["ReviewItem.note"] }, `ALTER TABLE "ReviewItem" ADD COLUMN "note" TEXT NOT NULL DEFAULT '';`, tableOf),
      [],
    );
    // A NOT NULL dropped (0015): PostgreSQL's ALTER COLUMN, SQLite's table redefinition.
    const relax = { ...bare, relaxed: ["ReviewItem.sessionId"] };
    const redefine = (create: string, copied = `"id", "sessionId"`) =>
      `PRAGMA foreign_keys=OFF; CREATE TABLE "new_ReviewItem" (${create}); INSERT INTO "new_ReviewItem" (${copied}) SELECT ${copied} FROM "ReviewItem"; DROP TABLE "ReviewItem"; ALTER TABLE "new_ReviewItem" RENAME TO "ReviewItem"; PRAGMA foreign_keys=ON;`;
    assert.deepEqual(additiveSqlProblems(relax, `ALTER TABLE "ReviewItem" ALTER COLUMN "sessionId" DROP NOT NULL;`, tableOf), []);
    assert.deepEqual(additiveSqlProblems(relax, redefine(`"id" TEXT NOT NULL PRIMARY KEY, "sessionId" TEXT`), tableOf), []);
    assert.deepEqual(
      additiveSqlProblems({ ...relax, columns: ["ReviewItem.unit"] }, redefine(`"id" TEXT NOT NULL PRIMARY KEY, "sessionId" TEXT, "unit" TEXT`), tableOf),
      [],
    );
    const relaxedCases: [MigrationVerdict & { restore: "additive" }, string, RegExp][] = [
      [bare, `ALTER TABLE "ReviewItem" ALTER COLUMN "cut" DROP NOT NULL;`, /drops NOT NULL on ReviewItem\.cut without declaring it relaxed/],
      [relax, `CREATE INDEX "i" ON "ReviewItem"("cut");`, /declares ReviewItem\.sessionId relaxed, which its SQL does not do/],
      [relax, redefine(`"id" TEXT NOT NULL PRIMARY KEY, "sessionId" TEXT NOT NULL`), /the redefined table keeps it NOT NULL/],
      [relax, redefine(`"id" TEXT NOT NULL PRIMARY KEY, "sessionId" TEXT, "note" TEXT`), /adds column ReviewItem\.note without declaring it/],
      [relax, redefine(`"id" TEXT NOT NULL PRIMARY KEY, "sessionId" TEXT`, `"id", "sessionId", "cut"`), /copies ReviewItem\.cut into a table without it/],
      [
        relax,
        redefine(`"id" TEXT NOT NULL PRIMARY KEY, "sessionId" TEXT, CONSTRAINT "f" FOREIGN KEY ("sessionId") REFERENCES "TraceSession" ("id")`),
        /a part a restore cannot check/,
      ],
      [relax, `CREATE TABLE "new_ReviewItem" ("id" TEXT, "sessionId" TEXT);`, /creates new_ReviewItem without copying every row into it/],
    ];
    for (const [verdict, sql, problem] of relaxedCases) assert.match(additiveSqlProblems(verdict, sql, tableOf).join("\n"), problem, sql);
    // PostgreSQL's form: several columns in one ALTER TABLE.
    assert.deepEqual(
      additiveSqlProblems(
        { ...bare, columns: ["ReviewItem.a", "ReviewItem.b"] },
        `ALTER TABLE "ReviewItem" ADD COLUMN     "a" TEXT,\nADD COLUMN     "b" INTEGER;`,
        tableOf,
      ),
      [],
    );
  });
});

describe("planArchiveUpgrade", () => {
  const refused = (archived: string[], pattern: RegExp, verdicts?: MigrationVerdict[], tables = ALL_TABLES) =>
    assert.throws(
      () => planArchiveUpgrade(archived, LOCAL, MODELS, tables, verdicts),
      (e: unknown) => e instanceof ArchiveError && pattern.test(e.message),
    );

  test("the same version restores as is", () => {
    const plan = planArchiveUpgrade(LOCAL, LOCAL, MODELS, ALL_TABLES);
    assert.deepEqual(plan.missing, []);
    assert.equal(plan.emptyTables.size, 0);
  });

  test("an archive at the baseline restores, the tables of the missing migrations empty", () => {
    const plan = planArchiveUpgrade(AT_BASELINE, LOCAL, MODELS, AT_BASELINE_TABLES);
    assert.deepEqual(plan.missing, LOCAL.slice(AT_BASELINE.length));
    assert.ok(LATER_TABLES.includes("CompactionJob"));
    assert.deepEqual([...plan.emptyTables].sort(), [...LATER_TABLES].sort());
  });

  test("an archive at the baseline that lacks another table, or already holds CompactionJob, is refused", () => {
    refused(AT_BASELINE, /^the archive has no table User$/, undefined, new Set([...AT_BASELINE_TABLES].filter((t) => t !== "User")));
    refused(
      AT_BASELINE,
      /^the archive has table CompactionJob, which a migration it lacks creates/,
      undefined,
      new Set([...AT_BASELINE_TABLES, "CompactionJob"]),
    );
  });

  test("a newer or foreign archive is refused naming its first unknown migration", () => {
    refused([...LOCAL, "0012_future", "0013_later"], /the archive has migration 0012_future, which this Tracefold version does not know/);
    refused([...AT_BASELINE, "0010_other_branch"], /the archive has migration 0010_other_branch, which this Tracefold version does not know/);
  });

  test("a history with a gap is refused naming the migration it lacks", () => {
    refused([...AT_BASELINE, "0011_compaction_jobs"], /the archive lacks migration 0010_label_recency but has later ones \(0011_compaction_jobs\)/);
  });

  test("a missing migration that is not additive is refused naming it, with its reason", () => {
    const verdicts: MigrationVerdict[] = [
      MIGRATION_VERDICTS[0]!,
      { name: "0011_compaction_jobs", restore: "breaks-older-archives", reason: "rewrites every session" },
      ...MIGRATION_VERDICTS.slice(2),
    ];
    const workspace = `${LOCAL.at(-1)} \\(${LOCAL.length}\\)`;
    refused(
      AT_BASELINE,
      new RegExp(
        `^the archive is at schema version 0009_suite_filters \\(9 migrations\\), this workspace at ${workspace}: the archive lacks migration 0011_compaction_jobs, which changes existing rows \\(rewrites every session\\); restore with the Tracefold version that made the backup, then upgrade$`,
      ),
      verdicts,
    );
    refused(AT_BASELINE, /the archive lacks migration 0010_label_recency, which is not declared additive/, MIGRATION_VERDICTS.slice(1));
    refused(LOCAL.slice(0, 4), /the archive lacks migration 0005_redaction, which predates backups/);
  });

  test("a column an additive migration adds must be nullable or defaulted: required ones are refused naming table and column", () => {
    const adds = (columns: string[]): MigrationVerdict[] => [{ ...MIGRATION_VERDICTS[0]!, restore: "additive", columns }, ...MIGRATION_VERDICTS.slice(1)];
    const tables = AT_BASELINE_TABLES;
    const plan = planArchiveUpgrade(AT_BASELINE, LOCAL, MODELS, tables, adds(["ReviewItem.assignees", "CompactionJob.attempts"]));
    assert.deepEqual([...plan.omittable.get("ReviewItem")!], ["assignees", "unit"], "the declared column, and 0015's");
    assert.deepEqual([...plan.omittable.get("CompactionJob")!], ["attempts"]);
    refused(AT_BASELINE, /column ReviewItem\.cut, added by 0010_label_recency, is required and has no default/, adds(["ReviewItem.cut"]), tables);
    refused(AT_BASELINE, /0010_label_recency declares column ReviewItem\.nope, which schema\.prisma does not have/, adds(["ReviewItem.nope"]), tables);
  });
});
