import type { SchemaModel } from "./schema-models";

/** The part of a Prisma model delegate a backup and a restore use, whatever the model. */
export interface ModelDelegate {
  findMany(args: { orderBy: Record<string, "asc">[]; take: number; skip?: number; cursor?: Record<string, unknown> }): Promise<Record<string, unknown>[]>;
  createMany(args: { data: Record<string, unknown>[] }): Promise<{ count: number }>;
  deleteMany(args?: Record<string, never>): Promise<{ count: number }>;
  count(): Promise<number>;
}

/** The client's delegate for a schema model; a client generated before the model existed fails here. */
export function delegateOf(client: unknown, model: SchemaModel): ModelDelegate {
  const delegate = (client as Record<string, ModelDelegate | undefined>)[model.delegate];
  if (!delegate || typeof delegate.findMany !== "function") {
    throw new Error(`the Prisma client has no model ${model.name}: run \`npm run db:generate\` after changing prisma/schema.prisma`);
  }
  return delegate;
}
