/**
 * The client address a request came from, for the sign-in throttle. `next start` sets
 * X-Forwarded-For to the socket's address when the request has none, so the first entry is the
 * client when the studio is reached directly or through a reverse proxy that overwrites the header
 * (configure yours to). A client talking to the studio directly can forge the header; the
 * throttle's per-account cap (any IP) bounds what that buys (see sign-in-throttle.ts).
 */
export function clientIpOf(headers: Record<string, string | string[] | undefined> | Headers): string {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const forwarded = get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = forwarded || get("x-real-ip")?.trim() || "unknown";
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is the same client as its IPv4 form.
  return ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "").slice(0, 64);
}
