/**
 * One value as one line of JSON. JSON.stringify already escapes newlines and control characters
 * in strings; NEL (U+0085) and the Unicode line and paragraph separators (U+2028, U+2029) it
 * leaves as they are, and readers that split lines the Unicode way (Python's splitlines) would
 * cut a message there. They are escaped too, which is still the same JSON.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}
