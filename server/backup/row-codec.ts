import type { SchemaModel } from "./schema-models";

/**
 * Rows as JSON lines and back, engine-neutral: DateTime as ISO 8601 (millisecond precision, what
 * both engines store), BigInt and Decimal as strings, Bytes as base64; everything else is plain
 * JSON. A dump from SQLite restores into PostgreSQL and the other way round.
 */
export function encodeRow(row: Record<string, unknown>): string {
  return JSON.stringify(row, (_key, value: unknown) => {
    if (typeof value === "bigint") return value.toString();
    if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
    return value;
  });
}

/**
 * Parses one line back into create data for the model; throws naming the field that does not fit.
 * A field in `omittable` (a column added after the archive was made, nullable or defaulted) may be
 * absent: it is left out, so the database fills its default or null.
 */
export function decodeRow(model: SchemaModel, line: string, omittable?: ReadonlySet<string>): Record<string, unknown> {
  const raw = JSON.parse(line) as unknown;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error("not a JSON object");
  const input = raw as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const field of model.fields) {
    if (!(field.name in input)) {
      if (omittable?.has(field.name)) continue;
      throw new Error(`column ${model.table}.${field.name} is missing`);
    }
    const value = input[field.name];
    if (value === null) {
      row[field.name] = null;
      continue;
    }
    row[field.name] = decodeValue(field.type, value, field.name);
  }
  const unknown = Object.keys(input).filter((k) => !model.fields.some((f) => f.name === k));
  if (unknown.length > 0) throw new Error(`unknown field ${unknown[0]} (the archive was made by another schema)`);
  return row;
}

function decodeValue(type: string, value: unknown, name: string): unknown {
  const fail = () => new Error(`field ${name}: ${JSON.stringify(value)?.slice(0, 40)} is not a valid ${type}`);
  switch (type) {
    case "DateTime": {
      if (typeof value !== "string") throw fail();
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) throw fail();
      return date;
    }
    case "BigInt":
      if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw fail();
      return BigInt(value);
    case "Bytes":
      if (typeof value !== "string") throw fail();
      return Buffer.from(value, "base64");
    case "Int":
    case "Float":
      if (typeof value !== "number") throw fail();
      return value;
    case "Boolean":
      if (typeof value !== "boolean") throw fail();
      return value;
    case "String":
    case "Decimal":
      if (typeof value !== "string") throw fail();
      return value;
    default:
      return value;
  }
}
