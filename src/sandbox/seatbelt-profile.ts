/**
 * The macOS sandbox: a Seatbelt profile for sandbox-exec, generated per command. Everything is
 * allowed that is not denied below (Apple's own tools need too many services to list), then
 * writes are denied except in the writable folders, masked paths cannot be read at all, the
 * protected files stay read-only, and the network is closed except for the egress proxy's
 * loopback port and servers the command itself starts on loopback. Later rules win in SBPL.
 * Written to the subset of SBPL in wide use; untested here (the project's CI runs Linux).
 */

export interface SeatbeltInput {
  /** Real paths (macOS: /private/tmp, not /tmp). */
  readonly writable: readonly string[];
  readonly masked: readonly string[];
  readonly readOnly: readonly string[];
  /** The egress proxy's loopback port; undefined: no network at all. */
  readonly proxyPort?: number;
}

/** A string literal in SBPL (a Scheme dialect): backslash and quote escaped. */
const lit = (s: string): string => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

export function seatbeltProfile(input: SeatbeltInput): string {
  const lines = ['(version 1)', '(allow default)'];
  lines.push('(deny file-write*)');
  const devices = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper', '/dev/stdout', '/dev/stderr'];
  lines.push(`(allow file-write* ${[...input.writable.map((p) => `(subpath ${lit(p)})`), ...devices.map((d) => `(literal ${lit(d)})`), '(regex #"^/dev/fd/")'].join(' ')})`);
  if (input.readOnly.length > 0) lines.push(`(deny file-write* ${input.readOnly.map((p) => `(subpath ${lit(p)})`).join(' ')})`);
  if (input.masked.length > 0) {
    const paths = input.masked.map((p) => `(subpath ${lit(p)})`).join(' ');
    lines.push(`(deny file-read* file-write* ${paths})`);
  }
  lines.push('(deny network*)');
  // A dev server the command starts on loopback, and its own connections to it.
  lines.push('(allow network-bind network-inbound (local ip "localhost:*"))');
  if (input.proxyPort !== undefined) lines.push(`(allow network-outbound (remote ip ${lit(`localhost:${input.proxyPort}`)}))`);
  return `${lines.join('\n')}\n`;
}
