import { formatDateTime } from "@/lib/util/format-date-time";
import type { Role } from "@/server/auth/roles";
import type { UserRecord } from "@/server/users/user-record";
import { RoleForm } from "./role-form";

/** The user list with an inline role change per row. */
export function UsersTable({ users, roles, currentUserId }: { users: UserRecord[]; roles: readonly Role[]; currentUserId: string }) {
  return (
    <div className="card">
      <table className="dt" aria-label="Users">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td>
                {user.name}
                {user.id === currentUserId ? <span className="faint"> (you)</span> : null}
              </td>
              <td className="mono">{user.email}</td>
              <td>
                <RoleForm user={user} roles={roles} />
              </td>
              <td className="faint">{formatDateTime(user.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
