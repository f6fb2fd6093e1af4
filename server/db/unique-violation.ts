/** Prisma's unique-constraint violation (P2002), recognised without importing a generated client. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
