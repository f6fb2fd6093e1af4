import bcrypt from "bcryptjs";
import type { Db } from "../db/client";
import { toUserRecord, type UserRecord } from "./user-record";
import type { CreateUserInput } from "./user-schemas";
import { isUniqueViolation } from "../db/unique-violation";
import { UserError } from "./user-error";

/** bcrypt cost: ~100 ms per hash here; sign-in pays the same once per session. */
export const BCRYPT_ROUNDS = 10;

/**
 * Creates a user with a bcrypt-hashed password. A taken e-mail is a UserError("conflict") on the
 * email field — checked first for the common case, and caught from the unique index for a race.
 */
export async function createUser(db: Db, input: CreateUserInput): Promise<UserRecord> {
  const email = input.email.trim().toLowerCase();
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw alreadyExists(email);
  const passwordHash = await bcrypt.hash(input.password, BCRYPT_ROUNDS);
  try {
    const row = await db.user.create({ data: { email, name: input.name.trim(), role: input.role, passwordHash } });
    return toUserRecord(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(email);
    throw error;
  }
}

function alreadyExists(email: string): UserError {
  return new UserError("conflict", `A user with the e-mail ${email} already exists.`, "email");
}
