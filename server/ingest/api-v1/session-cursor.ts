/**
 * Keyset pagination for `GET /api/v1/sessions`: a page ends at a (createdAt, id) pair, newest
 * first, and the cursor carries that pair (base64url JSON, opaque to callers). Sessions imported
 * while a caller pages never shift the pages it has not read yet, unlike offsets.
 */
export interface SessionCursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(cursor: SessionCursor): string {
  return Buffer.from(JSON.stringify({ c: cursor.createdAt.toISOString(), i: cursor.id }), "utf8").toString("base64url");
}

/** The cursor, or null when the text is not one this API gave out. */
export function decodeCursor(text: string): SessionCursor | null {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as { c?: unknown; i?: unknown };
    if (typeof value.c !== "string" || typeof value.i !== "string" || value.i.length === 0) return null;
    const createdAt = new Date(value.c);
    return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id: value.i };
  } catch {
    return null;
  }
}
