/**
 * bubblewrap's file-system arguments: the whole system read-only, a private /tmp, the project
 * and the listed folders writable, the always-ask files inside them read-only again, and the
 * masked paths gone. Order matters — bwrap mounts in argument order, later over earlier — and
 * read-only remounts of the folders rebuilt here come last, after every mount point is made.
 *
 * A masked path in a read-only area is made absent: its folder is rebuilt on an empty tmpfs with
 * every other entry bound back. That costs a mount per entry (about 0.2 ms), so a folder with too
 * many entries, or a masked path in a writable area, is masked in place instead: an empty
 * read-only folder, or /dev/null for a file.
 */
import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { MaskedPath } from './masked-paths.js';
import { absent as notThere } from '../diagnostics/ignore-error.js';

/** Entries a rebuilt folder may have; beyond this its masked entries are masked in place. */
export const MAX_REBUILT_ENTRIES = 40;
/** Bound-back entries for all rebuilt folders together (about 10 ms of mounts on a quiet machine). */
export const MAX_REBUILT_TOTAL = 48;

export interface MountInput {
  readonly projectRoot: string;
  /** Existing, real; inside the project or not. */
  readonly writable: readonly string[];
  /** The session's private temp folder on the host, seen as /tmp inside. */
  readonly privateTmp: string;
  readonly home: string;
  readonly masked: readonly MaskedPath[];
  /** Inside writable areas, bound read-only again. */
  readonly readOnly: readonly string[];
  /** Files to read that may lie under the host's /tmp (WrapSpec.readable). */
  readonly visible?: readonly string[];
}

export interface MountPlan {
  readonly args: string[];
  /** Masked paths that are absent inside. */
  readonly absent: readonly string[];
  /** Masked paths shown as an empty folder or file instead (writable area, crowded folder). */
  readonly emptied: readonly string[];
}

const within = (p: string, root: string): boolean => p === root || p.startsWith(root === '/' ? '/' : root + path.sep);

export async function planMounts(input: MountInput): Promise<MountPlan> {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/dev/shm', '--bind', input.privateTmp, '/tmp'];
  const hostTmp = '/tmp';
  const writableAreas = [input.projectRoot, ...input.writable];
  // A project or home folder under /tmp (scratch projects, tests) would vanish behind the private
  // /tmp, and the folders around it would be the private /tmp's, writable: its top folder there
  // is bound back read-only, so a write beside the project fails as it does anywhere else.
  const tops = new Set<string>();
  for (const p of [input.home, ...writableAreas, ...(input.visible ?? [])]) {
    const rel = path.relative(hostTmp, p);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) tops.add(path.join(hostTmp, rel.split(path.sep)[0] ?? ''));
  }
  for (const top of tops) args.push('--ro-bind', top, top);
  const exposed = [...tops];
  const inWritable = (p: string): boolean => writableAreas.some((w) => within(p, w));
  const hidden = (p: string): boolean => within(p, hostTmp) && !exposed.some((top) => within(p, top));

  const inPlace: MaskedPath[] = [];
  const byParent = new Map<string, MaskedPath[]>();
  for (const m of input.masked) {
    if (hidden(m.path)) continue; // behind the private /tmp already
    if (inWritable(m.path) || !m.absent) inPlace.push(m);
    else {
      const parent = path.dirname(m.path);
      byParent.set(parent, [...(byParent.get(parent) ?? []), m]);
    }
  }
  const remount: string[] = [];
  const absent: string[] = [];
  let budget = MAX_REBUILT_TOTAL;
  // Shallow folders first: a rebuilt home binds .config back before .config is rebuilt in turn.
  const parents = [...byParent.keys()].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  for (const parent of parents) {
    const masks = byParent.get(parent) ?? [];
    const entries = await readdir(parent, { withFileTypes: true }).catch(notThere);
    const kept = entries?.filter((e) => !masks.some((m) => m.path === path.join(parent, e.name)));
    // The root itself cannot be rebuilt: everything else is mounted on it.
    if (parent === '/' || entries === undefined || kept === undefined || entries.length > MAX_REBUILT_ENTRIES || kept.length > budget) {
      inPlace.push(...masks);
      continue;
    }
    budget -= kept.length;
    args.push('--tmpfs', parent);
    for (const entry of kept) {
      const full = path.join(parent, entry.name);
      if (entry.isSymbolicLink()) {
        const target = await readlink(full).catch(notThere);
        if (target !== undefined) args.push('--symlink', target, full);
      } else args.push('--ro-bind', full, full);
    }
    remount.push(parent);
    absent.push(...masks.map((m) => m.path));
  }

  for (const area of writableAreas) args.push('--bind', area, area);
  for (const p of input.readOnly) args.push('--ro-bind', p, p);
  for (const m of inPlace) {
    if (m.isDirectory) {
      args.push('--tmpfs', m.path);
      remount.push(m.path);
    } else args.push('--ro-bind', '/dev/null', m.path);
  }
  for (const p of remount) args.push('--remount-ro', p);
  return { args, absent, emptied: inPlace.map((m) => m.path) };
}
