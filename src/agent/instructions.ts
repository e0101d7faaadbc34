/**
 * Project instructions: AGENTS.md at the project root, LINDWYRM.md (agent-specific, takes
 * precedence), the user's own AGENTS.md, and config.contextFile. Files from the project are
 * untrusted input: a link out of the project is not read, and a huge file is cut with a note.
 */
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

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

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false; // missing or unreadable: there is no such file to load
  }
}

async function readCapped(path: string, maxBytes: number): Promise<{ text: string; truncated: boolean; size: number }> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
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
    if (!(await exists(c.path))) continue;
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
      const { text, truncated, size } = await readCapped(real, maxBytes);
      if (truncated) notes.push(`${c.path} is ${Math.round(size / 1024)} KB; only the first ${Math.round(maxBytes / 1024)} KB were read.`);
      if (text.trim()) sections.push({ kind: c.kind, label: c.label, path: c.path, text, truncated });
    } catch (err) {
      notes.push(`${c.path} could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { sections, notes };
}
