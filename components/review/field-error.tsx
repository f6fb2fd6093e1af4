"use client";

/**
 * Field-by-field errors of the review forms (the server's `fieldErrors`): the props that tie an
 * input to its message (`aria-invalid`, `aria-describedby`) and the message itself, as the admin
 * settings forms show them.
 */
export function fieldProps(prefix: string, name: string, errors: Record<string, string[]>) {
  return {
    id: `${prefix}-${name}`,
    name,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${prefix}-${name}-error` : undefined,
  };
}

export function FieldError({ prefix, name, errors }: { prefix: string; name: string; errors: Record<string, string[]> }) {
  return errors[name] ? (
    <span id={`${prefix}-${name}-error`} className="field-error">
      {errors[name].join(" ")}
    </span>
  ) : null;
}
