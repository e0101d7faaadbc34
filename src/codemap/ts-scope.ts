/**
 * Which project files a question needs in the checker's program. A reference to a declaration is
 * an identifier (or string, or JSDoc link) with its name, so only files whose text holds the name
 * can have one; under another name (`export { A as B }`, a default import) the alias is found in
 * those files and followed, and a default export is imported by a path that names its module.
 * Scripts (JS or TS files, declaration files too, with no import or export: their declarations
 * are global) and files that augment modules or the global scope are always in: they change what
 * every other file sees.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type * as TS from 'typescript';
import type { TsProgram } from './ts-program.js';

/** A text file's contents, kept while its version (size and mtime) holds. */
interface Cached { readonly version: string; readonly text: string }

const JS_FILE = /\.(js|jsx|mjs|cjs)$/i;
const MODULE_SYNTAX = /^[ \t]*(?:import[\s{*'"]|export[\s{*=]|export\s+(?:default|const|let|var|function|class|async|type|interface|enum|declare|abstract|namespace)\b)/m;
/** The same at the start of a line: a statement of the file itself, not of a namespace body (`declare namespace Deno { export … }`). */
const TOP_MODULE_SYNTAX = new RegExp(MODULE_SYNTAX.source.replace('^[ \\t]*', '^'), 'm');
const COMMONJS = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.[\w$]+\s*=/;
const AUGMENTS = /\bdeclare\s+(?:global|module)\b/;
/** Alias rounds over the text: each can only add names, and chains of renames are short. */
const MAX_ALIAS_ROUNDS = 4;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Any of `words` as a whole identifier, as the language service looks for candidates (`include` is not in `includes`). */
export function wholeWords(words: readonly string[]): RegExp {
  return new RegExp(`(?<![\\p{ID_Continue}$\\u200c\\u200d])(?:${words.map(escape).join('|')})(?![\\p{ID_Continue}$\\u200c\\u200d])`, 'u');
}

/** The word a module is imported by: its file name without extensions, or its directory's for an index file. */
export function moduleWord(rel: string): string {
  const name = basename(rel).replace(/\.[^.]*$/, '').replace(/\.d$/, '');
  return name === 'index' ? basename(dirname(rel)) : name;
}

export interface Scope {
  /** Files that are in every program: global scripts, module and global augmentations. */
  alwaysIn(): string[];
  /**
   * The files outside the program (`inProgram` false) that can use a declaration named `name` in
   * `file`, with the aliases they give it followed. `defaultExported`: imported under any name.
   * (An alias given in a file of the program is in the checker's answer, which asks again.)
   */
  users(name: string, file: string, defaultExported: boolean, inProgram: (rel: string) => boolean): string[];
  /** The current text of a project file (cached by version). */
  text(rel: string): string | undefined;
}

/**
 * `ts`: to parse the few files whose only import or export lines are indented, which may be a
 * namespace's members in a script (then its declarations are global) or a module formatted so.
 */
export function createScope(program: TsProgram, ts: typeof TS): Scope {
  const cache = new Map<string, Cached>();
  let always: { files: ReadonlySet<string>; list: string[] } | undefined;
  const text = (rel: string): string | undefined => {
    const version = program.version(program.abs(rel));
    const hit = cache.get(rel);
    if (hit?.version === version) return hit.text;
    if (version === 'missing') {
      cache.delete(rel);
      return undefined;
    }
    try {
      const t = readFileSync(program.abs(rel), 'utf8');
      cache.set(rel, { version, text: t });
      return t;
    } catch {
      cache.delete(rel);
      return undefined;
    }
  };
  const isGlobal = (rel: string): boolean => {
    const t = text(rel);
    if (t === undefined) return false;
    if (AUGMENTS.test(t)) return true;
    if (JS_FILE.test(rel) && COMMONJS.test(t)) return false;
    if (TOP_MODULE_SYNTAX.test(t)) return false;
    if (!MODULE_SYNTAX.test(t)) return true;
    return !ts.isExternalModule(ts.createSourceFile(rel, t, ts.ScriptTarget.Latest, false));
  };
  return {
    text,
    alwaysIn() {
      if (always?.files !== program.files) always = { files: program.files, list: [...program.files].filter(isGlobal) };
      return always.list;
    },
    users(name, file, defaultExported, inProgram) {
      const words = new Set([name]);
      if (defaultExported) words.add(moduleWord(file));
      const found = new Set<string>();
      let fresh = [...words];
      // Files in the program are searched by the checker itself (renames there show as aliases in its answer).
      const outside = [...program.files].filter((rel) => !inProgram(rel));
      for (let round = 0; round < MAX_ALIAS_ROUNDS && fresh.length > 0; round++) {
        const hits: string[] = [];
        // As the language service looks for candidates: the name as a whole identifier (`include` is not in `includes`).
        const word = wholeWords(fresh);
        for (const rel of outside) {
          if (found.has(rel)) continue;
          const t = text(rel);
          if (t !== undefined && fresh.some((w) => t.includes(w)) && word.test(t)) hits.push(rel);
        }
        const next: string[] = [];
        // `A as B` (import, export) and `default as B`: B is another name for the declaration.
        const alias = new RegExp(`(?:^|[^\\w$])(?:${fresh.map(escape).join('|')}|default)\\s+as\\s+([\\w$]+)`, 'g');
        for (const rel of hits) {
          found.add(rel);
          for (const m of text(rel)!.matchAll(alias)) {
            // `X as default`: imported from this module under any name.
            const w = m[1] === 'default' ? moduleWord(rel) : m[1]!;
            if (!words.has(w)) {
              words.add(w);
              next.push(w);
            }
          }
        }
        fresh = next;
      }
      return [...found];
    },
  };
}
