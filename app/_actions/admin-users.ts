"use server";

import { revalidatePath } from "next/cache";
import { actionFail, actionOk, invalidInput, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { createUser } from "@/server/users/create-user";
import { setUserRole } from "@/server/users/set-user-role";
import { UserError } from "@/server/users/user-error";
import type { UserRecord } from "@/server/users/user-record";
import { CreateUserSchema, SetUserRoleSchema } from "@/server/users/user-schemas";

/** Admin: create a user from the form (email, name, password, role). */
export async function createUserAction(_previous: ActionResult<UserRecord> | null, form: FormData): Promise<ActionResult<UserRecord>> {
  await requireUser("admin");
  const input = CreateUserSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return invalidInput(input.error);
  return run(() => createUser(getDb(), input.data));
}

/** Admin: change one user's role (never the last admin's away from admin). */
export async function setUserRoleAction(_previous: ActionResult<UserRecord> | null, form: FormData): Promise<ActionResult<UserRecord>> {
  await requireUser("admin");
  const input = SetUserRoleSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return invalidInput(input.error);
  return run(() => setUserRole(getDb(), input.data));
}

async function run(operation: () => Promise<UserRecord>): Promise<ActionResult<UserRecord>> {
  try {
    const user = await operation();
    revalidatePath("/admin/users");
    return actionOk(user);
  } catch (error) {
    if (error instanceof UserError) return actionFail(error.code, error.message, error.field ? { [error.field]: [error.message] } : undefined);
    throw error;
  }
}
