/**
 * When a sandboxed command fails, say whether the sandbox was why, in terms the model can pass
 * on: the host it could not reach and the setting that would open it, or the path it could not
 * write and the setting that would make it writable.
 */
import path from 'node:path';
import { isExecSensitive } from '../policy/exec-sensitive.js';

export interface NoteContext {
  /** sandbox_network as in force. */
  readonly allowed: readonly string[];
  /** Hosts the egress proxy refused during this command. */
  readonly refused: readonly string[];
  readonly projectRoot: string;
}

/** Host names in the usual "could not resolve / connect" messages of curl, git, npm, pip, ssh, ping. */
const HOST_PATTERNS: readonly RegExp[] = [
  /Could not resolve (?:host|proxy): ([^\s;:'"]+)/g,
  /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([^\s;:'"]+)/g,
  /Could not resolve hostname ([^\s;:'"]+)/g,
  /unable to access '[a-z+]+:\/\/(?:[^@/']*@)?([^/:']+)/g,
  /host='([^']+)'/g,
  /connect to ([^\s:]+)(?::| port )\d+ failed/g,
  /^(?:ping|nslookup|dig|host|wget)[^:\n]*: ([^\s:]+): (?:Temporary failure|Name or service not known|No address|unknown host)/gm,
  /unknown host ([^\s;:'"]+)/gi,
];

const OFFLINE = /Temporary failure in name resolution|Name or service not known|Network is unreachable|ENETUNREACH|EAI_AGAIN|ENOTFOUND|Could not resolve|no servers could be reached|connection timed out; no servers/i;

export function hostsNamedIn(output: string): string[] {
  const found: string[] = [];
  for (const pattern of HOST_PATTERNS) {
    for (const m of output.matchAll(pattern)) {
      const host = m[1]?.toLowerCase().replace(/\.$/, '');
      if (host && !found.includes(host) && host !== '127.0.0.1') found.push(host);
    }
  }
  return found;
}

const listed = (allowed: readonly string[]): string => (allowed.length === 0 ? 'it is empty' : `it lists ${allowed.join(', ')}`);

/** curl, wget, node, python on a refused loopback connection. */
const LOOPBACK_REFUSED = /(?:Failed to connect to|connect to|ECONNREFUSED|Connection refused[^\n]*?)\s*(?:\[?(127\.0\.0\.1|localhost|::1)\]?)/i;

function loopbackNote(output: string, ctx: NoteContext): string[] {
  const host = LOOPBACK_REFUSED.exec(output)?.[1];
  if (host === undefined) return [];
  return [
    `[sandbox: ${host} inside the sandbox is the sandbox's own loopback: servers on this machine are not reachable from it ` +
      `unless sandbox_network lists "${host}" (${listed(ctx.allowed)}).]`,
  ];
}

export function networkNotes(output: string, ctx: NoteContext): string[] {
  if (ctx.refused.length > 0) {
    return [
      `[sandbox: the connection to ${ctx.refused.join(', ')} was refused: not in sandbox_network (${listed(ctx.allowed)}). ` +
        'If the task needs it, ask the user to add the host to sandbox_network in their lindwyrm config.]',
    ];
  }
  if (!OFFLINE.test(output)) return loopbackNote(output, ctx);
  const hosts = hostsNamedIn(output);
  const which = hosts.length > 0 ? hosts.join(', ') : 'the host it needed';
  if (ctx.allowed.length === 0) {
    return [
      `[sandbox: ${which} could not be reached: sandboxed commands have no network (sandbox_network is empty). ` +
        'If the task needs it, ask the user to add the host to sandbox_network; it is then reachable over HTTP(S) through lindwyrm\'s proxy.]',
    ];
  }
  return [
    `[sandbox: ${which} could not be reached. Only HTTP and HTTPS through lindwyrm's proxy (HTTP_PROXY/HTTPS_PROXY) get out, to the hosts ` +
      `in sandbox_network (${listed(ctx.allowed)}); DNS lookups, ping, ssh and programs that ignore the proxy variables cannot.]`,
  ];
}

const READ_ONLY = /Read-only file system|EROFS/;
/** The path in "…: '/x': Read-only file system" (coreutils, curly quotes too), "EROFS … '/x'" (node), "bash: x: Read-only …". */
const WRITE_PATHS: readonly RegExp[] = [
  /['‘"]([^'’"\n]+)['’"]: Read-only file system/g,
  /EROFS[^\n]*?['‘"]([^'’"\n]+)['’"]/g,
  /([^\s:'"‘’`]+): Read-only file system/g,
];

export function writeNotes(output: string, ctx: NoteContext): string[] {
  if (!READ_ONLY.test(output)) return [];
  const paths: string[] = [];
  for (const pattern of WRITE_PATHS) for (const m of output.matchAll(pattern)) if (m[1] && !paths.includes(m[1])) paths.push(m[1]);
  const resolved = paths.map((p) => path.resolve(ctx.projectRoot, p));
  const protectedOnes = resolved.filter((p) => (p === ctx.projectRoot || p.startsWith(ctx.projectRoot + path.sep)) && isExecSensitive(p, ctx.projectRoot));
  const notes: string[] = [];
  if (protectedOnes.length > 0) {
    notes.push(
      `[sandbox: ${protectedOnes.join(', ')} stays read-only for commands: files like git hooks and config make other programs run code. ` +
        'Change it with write_file or edit_file, which ask the user.]',
    );
  }
  const outside = resolved.filter((p) => !protectedOnes.includes(p));
  if (outside.length > 0 || protectedOnes.length === 0) {
    const which = outside.length > 0 ? outside.join(', ') : 'a path';
    notes.push(
      `[sandbox: writing to ${which} failed: commands may write only in the project, /tmp (private to this session) and the ` +
        'folders in sandbox_writable. If the task needs it, ask the user to add the folder to sandbox_writable.]',
    );
  }
  return notes;
}
