/**
 * The public grammar of context-object ids (README: `conversation:user:k`, `function:<tool>:n`, or
 * the short forms `user:k` / `<tool>:n` Listing 2 writes), read by the judges on their own: a judge
 * may name a culprit object, and it must not lean on the planner's parser to do so.
 */
const ID_RE = /^(?:(conversation):(user):([1-9]\d*)|(function):([a-z0-9][a-z0-9_]*):([1-9]\d*)|([a-z0-9][a-z0-9_]*):([1-9]\d*))$/;

/** Full form of a written object id (`user:5` → `conversation:user:5`), or undefined when malformed. */
export function canonicalObjectId(written: string): string | undefined {
  const m = ID_RE.exec(written);
  if (!m) return undefined;
  if (m[1]) return written;
  if (m[4]) return m[5] === "user" ? undefined : written;
  return m[7] === "user" ? `conversation:user:${m[8]}` : `function:${m[7]}:${m[8]}`;
}
