/**
 * One simulated browser: a cookie jar over fetch, the next-auth credentials sign-in the login form
 * performs (csrf token → POST /api/auth/callback/credentials), and server-action calls made the way
 * React's client makes them (POST to the hosting page with `Next-Action: <id>`, the arguments as
 * JSON, a same-origin Origin header), with the RSC answer decoded back to the action's return value.
 */
export class StudioClient {
  private readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    // Like a browser: mutations carry the page's Origin (route handlers refuse them otherwise).
    if (init.method && init.method !== "GET" && !headers.has("origin")) headers.set("origin", this.origin);
    const response = await fetch(`${this.origin}${path}`, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      if (eq > 0) this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    return response;
  }

  /** Signs in with e-mail and password; throws unless a session cookie came back. */
  async signIn(email: string, password: string): Promise<void> {
    const { csrfToken } = (await (await this.fetch("/api/auth/csrf")).json()) as { csrfToken: string };
    const body = new URLSearchParams({ csrfToken, email, password, callbackUrl: `${this.origin}/traces`, json: "true" });
    const response = await this.fetch("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    await response.arrayBuffer();
    if (![...this.cookies.keys()].some((k) => k.endsWith("next-auth.session-token"))) throw new Error(`sign-in of ${email} failed (HTTP ${response.status})`);
  }

  /** Calls a server action; answers the HTTP status and the decoded return value (undefined when none). */
  async callAction<T>(pagePath: string, actionId: string, args: unknown[]): Promise<{ status: number; value: T | undefined }> {
    const response = await this.fetch(pagePath, {
      method: "POST",
      headers: { "Next-Action": actionId, "Content-Type": "text/plain;charset=UTF-8", Accept: "text/x-component", Origin: this.origin },
      body: encodeActionArgs(args),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200 || !(response.headers.get("content-type") ?? "").includes("text/x-component"))
      return { status: response.status, value: undefined };
    return { status: response.status, value: decodeActionResult(bytes) as T };
  }
}

/**
 * The arguments as React's client encodes plain JSON values for a server action (encodeReply): a
 * string that starts with `$` is sent as `$$…`, because the server reads `$…` as a reference to
 * another part of the request. Sent raw, a trace value such as `$HOME` left the server waiting for
 * a part that never came: React answered "Connection closed." and the action failed with HTTP 500.
 */
export function encodeActionArgs(args: unknown[]): string {
  return JSON.stringify(args, (_key, value: unknown) => (typeof value === "string" && value.startsWith("$") ? `$${value}` : value));
}

/**
 * The action's return value from a React Flight answer: row 0 is `{"a":"$@<row>",…}`; text rows
 * (`<id>:T<hex byte length>,<text>`) and `$<id>` references are resolved, `$$` unescaped.
 */
export function decodeActionResult(bytes: Buffer): unknown {
  const rows = new Map<string, unknown>();
  const texts = new Map<string, string>();
  let at = 0;
  while (at < bytes.length) {
    const colon = bytes.indexOf(0x3a, at);
    if (colon < 0) break;
    const id = bytes.toString("utf8", at, colon);
    if (bytes[colon + 1] === 0x54 /* T */) {
      const comma = bytes.indexOf(0x2c, colon);
      const length = parseInt(bytes.toString("utf8", colon + 2, comma), 16);
      texts.set(id, bytes.toString("utf8", comma + 1, comma + 1 + length));
      at = comma + 1 + length;
      continue;
    }
    const end = bytes.indexOf(0x0a, colon);
    const line = bytes.toString("utf8", colon + 1, end < 0 ? bytes.length : end);
    rows.set(id, /^[[{"0-9tfn-]/.test(line) ? JSON.parse(line) : line);
    at = end < 0 ? bytes.length : end + 1;
  }
  const resolve = (value: unknown): unknown => {
    if (typeof value === "string" && value.startsWith("$")) {
      if (value.startsWith("$$")) return value.slice(1);
      if (value === "$undefined") return undefined;
      const ref = /^\$@?([0-9a-f]+)$/.exec(value);
      if (ref) {
        return texts.has(ref[1]!) ? texts.get(ref[1]!) : resolve(rows.get(ref[1]!));
      }
      return value;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  const head = rows.get("0") as { a?: string } | undefined;
  return head?.a === undefined ? undefined : resolve(head.a);
}
