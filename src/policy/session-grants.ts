/**
 * What [a]lways answers granted in this conversation: whole kinds (writes inside the project, or
 * "every command" for bash) and bash grants (bash-grants.ts). One per session, held by the
 * runtime; the gate adds to it, /policy lists and revokes, and the header shows a count. Listeners
 * hear every change so the header stays live.
 */
import type { ToolKind } from '../config/types.js';
import { grantText, sameGrant, type BashGrant } from './bash-grants.js';

export type GrantEntry =
  | { readonly type: 'kind'; readonly kind: ToolKind }
  | { readonly type: 'bash'; readonly grant: BashGrant };

export interface SessionGrants {
  /** A whole kind is granted: writes inside the project, or every command (bash). */
  has(kind: ToolKind): boolean;
  add(kind: ToolKind): void;
  /** The bash grants, oldest first. */
  bash(): readonly BashGrant[];
  addBash(grants: readonly BashGrant[]): void;
  /** Everything granted, in the order given (what /policy numbers). */
  list(): readonly GrantEntry[];
  /** Takes back entry `index` (0-based) of list(); returns it, or undefined when there is none. */
  revoke(index: number): GrantEntry | undefined;
  /** How many grants are in force. */
  readonly size: number;
  onChange(listener: () => void): () => void;
}

export function createSessionGrants(): SessionGrants {
  const entries: GrantEntry[] = [];
  const listeners = new Set<() => void>();
  const changed = (): void => {
    for (const listener of [...listeners]) listener();
  };
  return {
    has: (kind) => entries.some((e) => e.type === 'kind' && e.kind === kind),
    add(kind) {
      if (entries.some((e) => e.type === 'kind' && e.kind === kind)) return;
      entries.push({ type: 'kind', kind });
      changed();
    },
    bash: () => entries.flatMap((e) => (e.type === 'bash' ? [e.grant] : [])),
    addBash(grants) {
      let added = false;
      for (const grant of grants) {
        if (entries.some((e) => e.type === 'bash' && sameGrant(e.grant, grant))) continue;
        entries.push({ type: 'bash', grant });
        added = true;
      }
      if (added) changed();
    },
    list: () => [...entries],
    revoke(index) {
      const [entry] = index >= 0 && index < entries.length ? entries.splice(index, 1) : [];
      if (entry !== undefined) changed();
      return entry;
    },
    get size() {
      return entries.length;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** One entry as /policy lists it. */
export function describeGrant(entry: GrantEntry): string {
  if (entry.type === 'bash') {
    return entry.grant.match === 'prefix'
      ? `bash: ${grantText(entry.grant)} (these words, then any plain arguments)`
      : `bash: ${grantText(entry.grant)} (exactly this command)`;
  }
  if (entry.kind === 'bash') return 'bash: every command (nothing is asked until the session ends; the denylist still applies)';
  return `${entry.kind}: any file inside the project`;
}

/** The header's note for one kind: '+2 always' for bash grants, '+every command', '+always'. */
export function grantNote(grants: SessionGrants, kind: ToolKind): string {
  if (kind === 'bash') {
    if (grants.has('bash')) return ' +every command';
    const n = grants.bash().length;
    return n > 0 ? ` +${n} always` : '';
  }
  return grants.has(kind) ? ' +always' : '';
}
