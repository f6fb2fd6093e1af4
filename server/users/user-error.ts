/**
 * An expected failure of a user operation, with a code the action maps to its result and, when it
 * concerns one form field, that field's name.
 */
export class UserError extends Error {
  constructor(
    public readonly code: "conflict" | "not_found" | "last_admin",
    message: string,
    public readonly field?: string,
  ) {
    super(message);
    this.name = "UserError";
  }
}
