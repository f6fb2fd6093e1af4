import type { Metadata } from "next";
import Link from "next/link";
import { CreateUserForm } from "@/components/admin/create-user-form";
import { UsersTable } from "@/components/admin/users-table";
import { requireUser } from "@/server/auth/require";
import { ROLES } from "@/server/auth/roles";
import { getDb } from "@/server/db/client";
import { listUsers } from "@/server/users/list-users";

export const metadata: Metadata = { title: "Users" };

/** Admin: who can sign in, and with which role. */
export default async function AdminUsersPage() {
  const me = await requireUser("admin");
  const users = await listUsers(getDb());
  return (
    <>
      <div className="page-header">
        <h1>Users</h1>
        <p>
          Viewers read traces; reviewers also upload and label; admins also manage users, <Link href="/admin/settings">settings</Link>,{" "}
          <Link href="/admin/keys">API keys</Link> and <Link href="/admin/retention">retention</Link>.
        </p>
      </div>
      <div className="grid-2">
        <UsersTable users={users} roles={ROLES} currentUserId={me.id} />
        <CreateUserForm roles={ROLES} />
      </div>
    </>
  );
}
