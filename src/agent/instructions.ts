/**
 * Project instructions: AGENTS.md at the project root, LINDWYRM.md (agent-specific, takes
 * precedence), the user's own AGENTS.md, and config.contextFile. Files from the project are
 * untrusted input: a file that is a symbolic or hard link is not read (whichever side of the
 * project it leads to), a huge one is cut with a note, and hidden text is named and its tag
 * characters removed (hidden-text.ts).
 */
import { constants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { scanHiddenText } from './hidden-text.js';
import { absent } from '../diagnostics/ignore-error.js';

/** Instructions cost tokens on every request; past this a file is cut. */
export const MAX_INSTRUCTION_BYTES = 32 * 1024;

export type InstructionKind = 'user' | 'project' | 'agent' | 'context';

export interface InstructionSection {
  readonly kind: InstructionKind;
  /** What the model is told the text is ('AGENTS.md (project root)'). */
  readonly label: string;
  readonly path: string;
  readonly text: string;
  readonly truncated: boolean;
}

export interface LoadedInstructions {
  /** Lowest precedence first. */
  readonly sections: readonly InstructionSection[];
  /** Files that exist but were skipped or cut, in plain words (shown to the user once). */
  readonly notes: readonly string[];
}

export interface InstructionOptions {
  readonly projectRoot: string;
  /** ~/.config/lindwyrm/AGENTS.md (appPaths().userInstructionsFile). */
  readonly userFile: string;
  readonly contextFile?: string;
  /** Trusted projects may name a context_file outside the project. */
  readonly trusted: boolean;
  readonly maxBytes?: number;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

async function readCapped(path: string, maxBytes: number): Promise<{ text: string; truncated: boolean; size: number }> {
  // The checks above ran on the name; these hold for the file opened, should it be swapped between
  // (a link put in its place, a FIFO that would block the start).
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('it is not a regular file');
    if (info.nlink > 1) throw new Error(`it has ${info.nlink} hard links; instruction files that are links are not read`);
    const size = info.size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    let text = new TextDecoder('utf-8', { fatal: false }).decode(buffer.subarray(0, bytesRead));
    const truncated = size > maxBytes;
    if (truncated) {
      // Cut at a line end so the model never sees half a command; drop a split character.
      const lastNewline = text.lastIndexOf('\n');
      if (lastNewline > 0) text = text.slice(0, lastNewline + 1);
      text = text.replace(/\uFFFD$/, '');
    }
    return { text, truncated, size };
  } finally {
    await handle.close();
  }
}

/** Why `path` is not read as instructions (a symbolic or hard link), or undefined. */
async function linkNote(path: string, root: string): Promise<string | undefined> {
  const info = await lstat(path).catch(absent);
  if (info === undefined) return undefined;
  if (info.isSymbolicLink()) {
    const target = await realpath(path).catch(absent);
    if (target !== undefined && !inside(root, target)) {
      return `${path} points outside the project (a symbolic link to ${target}); instruction files that are links are not read.`;
    }
    return `${path} is a symbolic link (to ${target ?? 'a missing file'}); instruction files that are links are not read.`;
  }
  if (info.isFile() && info.nlink > 1) return `${path} has ${info.nlink} hard links; instruction files that are links are not read.`;
  return undefined;
}

interface Candidate {
  readonly kind: InstructionKind;
  readonly label: string;
  readonly path: string;
  /** Must resolve inside this root (links included), when set. */
  readonly confineTo?: string;
}

export async function loadInstructions(opts: InstructionOptions): Promise<LoadedInstructions> {
  const maxBytes = opts.maxBytes ?? MAX_INSTRUCTION_BYTES;
  const root = await realpath(opts.projectRoot);
  const candidates: Candidate[] = [
    { kind: 'user', label: 'personal preferences (~/.config/lindwyrm/AGENTS.md)', path: opts.userFile },
    { kind: 'project', label: 'AGENTS.md (project root)', path: join(root, 'AGENTS.md'), confineTo: root },
    { kind: 'agent', label: 'LINDWYRM.md (project root, notes for this agent)', path: join(root, 'LINDWYRM.md'), confineTo: root },
  ];
  if (opts.contextFile) {
    candidates.push({
      kind: 'context',
      label: `context file ${relative(root, opts.contextFile) || opts.contextFile}`,
      path: opts.contextFile,
      ...(opts.trusted ? {} : { confineTo: root }),
    });
  }
  const sections: InstructionSection[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if ((await lstat(c.path).catch(absent)) === undefined) continue;
    // A link makes one file two: edited here, it changes there (another project's instructions,
    // or the user's own, which every session obeys). Neither side of a link is read.
    const link = await linkNote(c.path, root);
    if (link !== undefined) {
      notes.push(link);
      continue;
    }
    let real: string;
    try {
      real = await realpath(c.path);
    } catch {
      continue; // vanished since it was found: nothing to load
    }
    if (c.confineTo && !inside(c.confineTo, real)) {
      notes.push(`${c.path} points outside the project (to ${real}); not read.`);
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    try {
      if (!(await stat(real)).isFile()) {
        notes.push(`${c.path} is not a regular file; not read.`);
        continue;
      }
      const read = await readCapped(real, maxBytes);
      const { truncated, size } = read;
      if (truncated) notes.push(`${c.path} is ${Math.round(size / 1024)} KB; only the first ${Math.round(maxBytes / 1024)} KB were read.`);
      const hidden = scanHiddenText(read.text);
      if (hidden.found !== '') notes.push(`${c.path} contains ${hidden.found}.`);
      const text = hidden.text;
      if (text.trim()) sections.push({ kind: c.kind, label: c.label, path: c.path, text, truncated });
    } catch (err) {
      notes.push(`${c.path} could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { sections, notes };
}
