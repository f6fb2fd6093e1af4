/**
 * A count with its noun, agreeing in number: `plural(1, "message")` → "1 message",
 * `plural(1234, "message")` → "1,234 messages", `plural(2, "reply", "replies")` → "2 replies".
 * Every count the studio prints goes through here, so no page says "1 messages". Numbers use
 * en-US grouping whatever the viewer's locale (server and browser render the same text).
 */
export function plural(count: number, singular: string, pluralForm?: string): string {
  return `${count.toLocaleString("en-US")} ${nounFor(count, singular, pluralForm)}`;
}

/** The noun alone, for a count that is styled apart (`<strong>3</strong> sidecars`). */
export function nounFor(count: number, singular: string, pluralForm: string = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}
