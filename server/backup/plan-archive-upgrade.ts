import { BASELINE_MIGRATION, MIGRATION_VERDICTS, type MigrationVerdict } from "./migration-verdicts";
import type { SchemaModel } from "./schema-models";
import { ArchiveError } from "./tar-reader";

/** How an archive's rows fit this workspace's schema. */
export interface ArchiveUpgrade {
  /** Migrations the workspace has and the archive lacks, oldest first (all additive). */
  missing: string[];
  /** Models the archive has no table for, created by a missing migration: restored empty. */
  emptyTables: Set<string>;
  /** Per model, the fields archived rows may lack (added by a missing migration; nullable or defaulted). */
  omittable: Map<string, Set<string>>;
}

/**
 * Decides whether an archive made at `archived` (its manifest's migration names) restores into a
 * workspace at `local`, before anything is written. The same list restores as is. An older
 * archive — its list a prefix of the workspace's — restores when every migration it lacks is
 * declared additive (migration-verdicts.ts) and every column those add is nullable or has a
 * default here. Refused, naming the first offending migration: one the workspace does not have
 * (a newer or foreign archive), a history that diverges, a missing migration that is not additive.
 * Also checks the archive's tables: all of the schema's but those the missing migrations create.
 */
export function planArchiveUpgrade(
  archived: readonly string[],
  local: readonly string[],
  models: readonly SchemaModel[],
  archiveTables: ReadonlySet<string>,
  verdicts: readonly MigrationVerdict[] = MIGRATION_VERDICTS,
): ArchiveUpgrade {
  const versions = `the archive is at schema version ${archived.at(-1) ?? "(none)"} (${archived.length} migrations), this workspace at ${local.at(-1) ?? "(none)"} (${local.length})`;
  const unknown = archived.find((name) => !local.includes(name));
  if (unknown !== undefined)
    throw new ArchiveError(
      `${versions}: the archive has migration ${unknown}, which this Tracefold version does not know (the backup was made by a newer or different version); restore it with that version`,
    );
  const diverges = archived.findIndex((name, i) => local[i] !== name);
  if (diverges >= 0)
    throw new ArchiveError(
      `${versions}: the archive lacks migration ${local[diverges]} but has later ones (${archived[diverges]}); its history does not match this version's`,
    );
  const missing = local.slice(archived.length);
  const emptyTables = new Set<string>();
  const omittable = new Map<string, Set<string>>();
  for (const name of missing) {
    const verdict = verdicts.find((v) => v.name === name);
    if (!verdict || verdict.restore !== "additive") {
      const why = verdict
        ? `changes existing rows (${verdict.reason})`
        : name <= BASELINE_MIGRATION
          ? "predates backups"
          : "is not declared additive in server/backup/migration-verdicts.ts";
      throw new ArchiveError(
        `${versions}: the archive lacks migration ${name}, which ${why}; restore with the Tracefold version that made the backup, then upgrade`,
      );
    }
    for (const table of verdict.tables ?? []) emptyTables.add(table);
    for (const column of verdict.columns ?? []) {
      const [modelName, fieldName] = column.split(".") as [string, string];
      const model = models.find((m) => m.name === modelName);
      const field = model?.fields.find((f) => f.name === fieldName);
      if (!model || !field) throw new ArchiveError(`${name} declares column ${column}, which schema.prisma does not have`);
      if (!field.optional && !field.defaulted) {
        throw new ArchiveError(
          `${versions}: column ${column}${model.table !== modelName ? ` (table ${model.table})` : ""}, added by ${name}, is required and has no default, so archived ${modelName} rows cannot fill it; restore with the Tracefold version that made the backup, then upgrade`,
        );
      }
      if (!omittable.has(modelName)) omittable.set(modelName, new Set());
      omittable.get(modelName)!.add(fieldName);
    }
  }
  for (const model of models) {
    if (archiveTables.has(model.name)) {
      if (emptyTables.has(model.name))
        throw new ArchiveError(`the archive has table ${model.name}, which a migration it lacks creates: its manifest is inconsistent`);
    } else if (!emptyTables.has(model.name)) {
      throw new ArchiveError(`the archive has no table ${model.name}`);
    }
  }
  for (const table of archiveTables) if (!models.some((m) => m.name === table)) throw new ArchiveError(`the archive's table ${table} is not in this schema`);
  return { missing, emptyTables, omittable };
}
