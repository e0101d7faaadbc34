/**
 * The session's record of build files the agent changed (build-files.ts): noted when a file tool
 * writes or deletes one, and found by comparing the project root's build files before and after
 * each command (a `sed -i` or `echo >>` leaves no other trace). An allowlisted command of the tool
 * that runs a changed file is then asked about again; once the user says yes, those changes count
 * as seen until the next one.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { buildToolOfCommand, buildToolsOf, ROOT_BUILD_NAMES, type BuildTool } from './build-files.js';
import type { Decision } from './types.js';
import { absent } from '../diagnostics/ignore-error.js';

type Fingerprints = Map<string, string>;

export interface BuildFileWatch {
  /** A file tool changed (or deleted) this file. */
  noteChanged(realPath: string): void;
  /**
   * The build files as they are now, to compare after a command: the root's, and any the command
   * names (`sed -i … packages/api/package.json`, `echo >> sub/Makefile`).
   */
  fingerprint(command?: string): Promise<Fingerprints>;
  /** After a command: whatever differs from `before` was changed by it. */
  compare(before: Fingerprints): Promise<void>;
  /** Why this command must be asked about again, or undefined. */
  reasonFor(command: string): string | undefined;
  /** The user approved the command: the changes it would run count as seen. */
  seen(command: string): void;
}

export function createBuildFileWatch(projectRoot: string): BuildFileWatch {
  /** Changed files (project-relative where inside) by build tool label. */
  const changed = new Map<string, Set<string>>();
  const shown = (file: string): string => {
    const rel = path.relative(projectRoot, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
  };
  const note = (file: string, tools: readonly BuildTool[]): void => {
    for (const tool of tools) {
      const set = changed.get(tool.label) ?? new Set<string>();
      set.add(shown(file));
      changed.set(tool.label, set);
    }
  };
  return {
    noteChanged(realPath) {
      note(realPath, buildToolsOf(realPath));
    },
    fingerprint(command) {
      return printsOf(projectRoot, [...ROOT_BUILD_NAMES, ...(command === undefined ? [] : namedBuildFiles(command))]);
    },
    async compare(before) {
      const after = await printsOf(projectRoot, [...before.keys()]);
      for (const [name, print] of before) {
        if (after.get(name) !== print) note(path.resolve(projectRoot, name), buildToolsOf(name));
      }
    },
    reasonFor(command) {
      const tool = buildToolOfCommand(command);
      const files = tool === undefined ? undefined : changed.get(tool.label);
      if (tool === undefined || files === undefined || files.size === 0) return undefined;
      const list = [...files].sort();
      const named = list.length > 3 ? `${list.slice(0, 3).join(', ')} and ${list.length - 3} more` : list.join(', ');
      return `${named} changed in this session, and ${tool.label} runs ${list.length === 1 ? 'it' : 'them'}`;
    },
    seen(command) {
      const tool = buildToolOfCommand(command);
      if (tool !== undefined) changed.delete(tool.label);
    },
  };
}

/** What tells a changed file from the same one: inode, size and both times (a `cp` or `sed -i` moves them all). */
async function printsOf(root: string, names: readonly string[]): Promise<Fingerprints> {
  const prints: Fingerprints = new Map();
  await Promise.all(
    [...new Set(names)].map(async (name) => {
      const info = await lstat(path.resolve(root, name), { bigint: true }).catch(absent);
      prints.set(name, info === undefined ? '-' : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`);
    }),
  );
  return prints;
}

/** Words of a command line that name a build file, as written (relative to the project root). */
function namedBuildFiles(command: string): string[] {
  return command
    .split(/[\s;|&<>()'"`=]+/)
    .filter((word) => word !== '' && !word.startsWith('-') && !word.includes('$') && buildToolsOf(word).length > 0)
    .slice(0, 32);
}

/**
 * An allowlisted command (or, once grants have prefixes, a prefix-granted one) that would run a
 * changed build file becomes a confirm, with the file named; otherwise the decision is unchanged.
 * --allow bash and an [a]lways bash grant still cover it: they cover any command already.
 */
export function askAgainForBuildFiles<D extends Decision & { readonly allowlisted?: string }>(
  watch: BuildFileWatch | undefined,
  command: string,
  decision: D,
): D | Decision {
  if (watch === undefined || decision.level !== 'allow' || decision.allowlisted === undefined) return decision;
  const why = watch.reasonFor(command);
  if (why === undefined) return decision;
  return { level: 'confirm', reason: `allowlist: ${decision.allowlisted}, asked again: ${why}`, askedAgain: true };
}
