/**
 * A file's outward shape: what other files can see of it, per top-level name. Bodies of functions
 * whose return type is written, initializers of annotated variables, properties and parameters,
 * constructor, setter and static-block bodies cannot change any type outside the file, so they are
 * left out; everything else (imports, exports, augmentations, unannotated code whose types are
 * inferred, comments inside it) is kept, as text. JavaScript keeps everything: its types are inferred.
 *
 * An edit that leaves the shape as it was changes no other file's types, and so none of their
 * references; one that only adds top-level names can change only files that write those names.
 */
import type * as TS from 'typescript';

type Ts = typeof TS;

export interface FileShape {
  /** Each top-level name's declarations (overloads, merged declarations: one entry), as kept text. */
  readonly names: ReadonlyMap<string, string>;
  /** Every statement that declares no single name: imports, exports, augmentations, top-level code. */
  readonly rest: string;
  /**
   * A script (no import or export: its top-level names are global, merged with others'), or a file
   * that augments a module or the global scope: a change to it can change any file.
   */
  readonly global: boolean;
}

export type ShapeChange =
  | { readonly kind: 'none' }
  /**
   * Only these top-level names' declarations changed (added, removed, edited), and nothing else in
   * the file writes them: a file that does not write one of them sees the file as it was.
   */
  | { readonly kind: 'names'; readonly names: readonly string[] }
  /** `everywhere`: the file is global (a script, an augmentation): any file can be affected, not only its importers. */
  | { readonly kind: 'changed'; readonly everywhere: boolean };

const JS_FILE = /\.(js|jsx|mjs|cjs)$/i;

/** The parts of `node` no other file can see (ranges of text), in a TypeScript file. */
function hiddenParts(ts: Ts, node: TS.Node, out: [number, number][]): void {
  const hide = (n: TS.Node | undefined): void => {
    if (n) out.push([n.pos, n.end]);
  };
  const visit = (n: TS.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const body = n.body as TS.Node;
      if (ts.isConstructorDeclaration(n) || ts.isSetAccessorDeclaration(n) || n.type !== undefined) {
        hide(body);
        for (const p of n.parameters) visit(p);
        if (n.type) visit(n.type);
        return;
      }
    } else if (ts.isClassStaticBlockDeclaration(n)) {
      hide(n.body);
      return;
    } else if ((ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n) || ts.isParameter(n)) && n.type && n.initializer) {
      hide(n.initializer);
      ts.forEachChild(n, (c) => (c === n.initializer ? undefined : visit(c)));
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
}

/** The text of `node` without its hidden parts, whitespace runs made one space. */
function keptText(ts: Ts, sf: TS.SourceFile, node: TS.Node, js: boolean): string {
  const hidden: [number, number][] = [];
  if (!js) hiddenParts(ts, node, hidden);
  hidden.sort((a, b) => a[0] - b[0]);
  let at = node.getStart(sf);
  let text = '';
  for (const [from, to] of hidden) {
    if (to <= at) continue;
    if (from > at) text += sf.text.slice(at, from);
    text += '{}';
    at = to;
  }
  text += sf.text.slice(at, node.end);
  return text.replace(/\s+/g, ' ');
}

/** The single name a statement declares, undefined for statements that declare none or several kinds. */
function statementName(ts: Ts, s: TS.Statement): string | undefined {
  if (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) return s.name?.text ?? 'default';
  if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) return s.name.text;
  // `declare module 'x'` and `declare global` change what other modules see: they stay in the rest.
  if (ts.isModuleDeclaration(s)) return ts.isIdentifier(s.name) && !(s.flags & ts.NodeFlags.GlobalAugmentation) ? s.name.text : undefined;
  if (ts.isVariableStatement(s)) {
    const names = s.declarationList.declarations.map((d) => (ts.isIdentifier(d.name) ? d.name.text : undefined));
    return names.every((n) => n !== undefined) ? names.join(',') : undefined;
  }
  return undefined;
}

export function fileShape(ts: Ts, sf: TS.SourceFile): FileShape {
  const js = JS_FILE.test(sf.fileName);
  const names = new Map<string, string>();
  const rest: string[] = [];
  let augments = false;
  for (const s of sf.statements) {
    if (ts.isModuleDeclaration(s) && (!ts.isIdentifier(s.name) || s.flags & ts.NodeFlags.GlobalAugmentation)) augments = true;
    const name = statementName(ts, s);
    const text = keptText(ts, sf, s, js);
    if (name === undefined) rest.push(text);
    else names.set(name, names.has(name) ? `${names.get(name)!}\n${text}` : text);
  }
  // CommonJS (`require`, `module.exports`) makes a JavaScript file a module too; the compiler marks it.
  const commonJs = (sf as { commonJsModuleIndicator?: unknown }).commonJsModuleIndicator !== undefined;
  return { names, rest: rest.join('\n'), global: augments || (!ts.isExternalModule(sf) && !commonJs) };
}

const wordOf = (names: readonly string[]): RegExp =>
  new RegExp(`(?:^|[^\\w$])(?:${names.map((n) => n.replace(/[$]/g, '\\$')).join('|')})(?![\\w$])`);

export function shapeChange(before: FileShape, after: FileShape): ShapeChange {
  const changed: ShapeChange = { kind: 'changed', everywhere: before.global || after.global };
  if (before.rest !== after.rest || before.global !== after.global) return changed;
  const keys = new Set([...before.names.keys(), ...after.names.keys()]);
  const edited = new Set([...keys].filter((k) => before.names.get(k) !== after.names.get(k)));
  if (edited.size === 0) return { kind: 'none' };
  if (after.global) return changed;
  // A declaration that writes a changed name changes with it (a local type now shadowing a global one, a use of the removed one).
  for (let grew = true; grew;) {
    grew = false;
    const word = wordOf([...edited].flatMap((k) => k.split(',')));
    if (word.test(after.rest)) return changed;
    for (const k of keys) {
      if (edited.has(k) || !(word.test(after.names.get(k) ?? '') || word.test(before.names.get(k) ?? ''))) continue;
      edited.add(k);
      grew = true;
    }
  }
  // A default export is imported under any name.
  if ([...edited].some((k) => /\bexport\s+default\b/.test(`${before.names.get(k) ?? ''}${after.names.get(k) ?? ''}`))) return changed;
  return { kind: 'names', names: [...edited].flatMap((k) => k.split(',')) };
}

/** Whether `text` writes one of `names` (as a whole word). */
export function writesAny(text: string, names: readonly string[]): boolean {
  return names.some((n) => text.includes(n)) && wordOf(names).test(text);
}
