import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** A scalar column as the backup writes and reads it. */
export interface ModelField {
  name: string;
  type: string;
  /** `Type?`: a row may hold null (an insert that leaves it out stores null). */
  optional: boolean;
  /** `@default(…)` or `@updatedAt`: an insert that leaves it out gets a value. */
  defaulted: boolean;
}

/** One table of the workspace, from prisma/schema.prisma. */
export interface SchemaModel {
  name: string;
  /** The Prisma client property (`traceMessage` for TraceMessage). */
  delegate: string;
  /** Table name in the database (@@map or the model name). */
  table: string;
  fields: ModelField[];
  /** Primary key fields, in order (@id, or @@id([…])). */
  idFields: string[];
  /** The Int field filled by autoincrement(), whose PostgreSQL sequence a restore must move past. */
  autoincrement: { field: string; column: string } | null;
  /** Models this one has a foreign key to (rows there must exist first). */
  parents: string[];
}

const SCALARS = new Set(["String", "Int", "Float", "Boolean", "DateTime", "BigInt", "Decimal", "Json", "Bytes"]);

/**
 * Reads the models from the one schema source (prisma/schema.prisma) so a backup covers every table
 * the code knows, including ones added after this was written, with nothing to keep in sync. Why
 * the schema text rather than the generated client: the client's runtime data model does not say
 * which side of a relation holds the foreign key, and restore needs that order. Enums read as String.
 */
export function readSchemaModels(root = process.cwd()): SchemaModel[] {
  const text = readFileSync(resolve(root, "prisma", "schema.prisma"), "utf8");
  const blocks = [...text.matchAll(/^(model|enum)\s+(\w+)\s*\{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(blocks.filter((b) => b[1] === "model").map((b) => b[2]!));
  const enumNames = new Set(blocks.filter((b) => b[1] === "enum").map((b) => b[2]!));
  const models = blocks.filter((b) => b[1] === "model").map(([, , name, body]) => parseModel(name!, body!, modelNames, enumNames));
  return orderByDependencies(models);
}

function parseModel(name: string, body: string, modelNames: Set<string>, enumNames: Set<string>): SchemaModel {
  const fields: ModelField[] = [];
  const parents = new Set<string>();
  let idFields: string[] = [];
  let table = name;
  let autoincrement: SchemaModel["autoincrement"] = null;
  for (const raw of body.split("\n")) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    if (line === "") continue;
    if (line.startsWith("@@")) {
      const id = /^@@id\(\s*(?:fields:\s*)?\[([^\]]*)\]/.exec(line);
      if (id)
        idFields = id[1]!
          .split(",")
          .map((f) => f.trim())
          .filter(Boolean);
      const map = /^@@map\(\s*(?:name:\s*)?"([^"]+)"/.exec(line);
      if (map) table = map[1]!;
      continue;
    }
    const match = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, field, type, list, optional, attributes = ""] = match;
    if (modelNames.has(type!)) {
      if (/@relation\([^)]*fields:/.test(attributes) && type !== name) parents.add(type!);
      continue;
    }
    if (list) throw new Error(`schema.prisma: ${name}.${field} is a scalar list, which backups do not support`);
    const scalar = enumNames.has(type!) ? "String" : type!;
    if (!SCALARS.has(scalar)) throw new Error(`schema.prisma: ${name}.${field} has unknown type ${type}`);
    fields.push({ name: field!, type: scalar, optional: optional === "?", defaulted: /@default\(|@updatedAt\b/.test(attributes) });
    if (/(^|\s)@id(\s|$)/.test(attributes)) idFields = [field!];
    if (/@default\(\s*autoincrement\(\)\s*\)/.test(attributes)) autoincrement = { field: field!, column: /@map\("([^"]+)"\)/.exec(attributes)?.[1] ?? field! };
  }
  if (idFields.length === 0) throw new Error(`schema.prisma: model ${name} has no primary key`);
  return { name, delegate: name[0]!.toLowerCase() + name.slice(1), table, fields, idFields, autoincrement, parents: [...parents] };
}

/** Parents before children (restore inserts in this order, a forced restore deletes in reverse). */
function orderByDependencies(models: SchemaModel[]): SchemaModel[] {
  const byName = new Map(models.map((m) => [m.name, m]));
  const ordered: SchemaModel[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (model: SchemaModel, path: string[]) => {
    if (state.get(model.name) === "done") return;
    if (state.get(model.name) === "visiting") throw new Error(`schema.prisma: relation cycle ${[...path, model.name].join(" → ")}`);
    state.set(model.name, "visiting");
    for (const parent of model.parents) visit(byName.get(parent)!, [...path, model.name]);
    state.set(model.name, "done");
    ordered.push(model);
  };
  for (const model of models) visit(model, []);
  return ordered;
}
