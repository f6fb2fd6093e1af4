"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

/**
 * E-mail + password form. Uses `redirect: false` so a wrong password stays on this page with a
 * message instead of bouncing through next-auth's error page.
 */
/** The throttle's own message (server/auth/sign-in-throttle.ts) is shown as is; anything else is generic. */
function messageFor(error: string | null | undefined): string {
  if (!error || error === "CredentialsSignin") return "Wrong e-mail or password.";
  if (/^Too many failed sign-ins; try again in \d+ minutes?\.$/.test(error)) return error;
  return "Sign-in failed. Try again.";
}

export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        redirect: false,
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
      });
      if (!result || result.error) {
        setError(messageFor(result?.error));
        return;
      }
      router.replace(callbackUrl);
      router.refresh();
    } catch {
      setError("The server could not be reached. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-describedby={error ? "login-error" : undefined}>
      <div className="field">
        <label htmlFor="login-email">E-mail</label>
        <input id="login-email" name="email" type="email" className="input" autoComplete="username" required autoFocus />
      </div>
      <div className="field">
        <label htmlFor="login-password">Password</label>
        <input id="login-password" name="password" type="password" className="input" autoComplete="current-password" required />
      </div>
      {error ? (
        <div id="login-error" className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
