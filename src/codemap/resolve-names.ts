/**
 * Name resolution: a name written in a file is looked up in the file itself, then through its
 * imports, and only then as a unique project-wide name. When the answer is not certain there is no
 * edge: a missing edge costs little, an edge to the wrong same-named symbol misleads the model.
 */
import { posix } from 'node:path';
import type { ProjectSymbol } from './graph-types.js';
import { createReceiverTypes } from './receiver-types.js';
import type { FileIndex, ImportResolveContext, LanguagePlugin, ProjectFacts } from './types.js';

export interface IndexedFile {
  readonly index: FileIndex;
  readonly plugin?: LanguagePlugin;
}

export interface ResolverInput {
  readonly files: ReadonlyMap<string, IndexedFile>;
  readonly symbols: readonly ProjectSymbol[];
  readonly byFile: ReadonlyMap<string, readonly number[]>;
  readonly byName: ReadonlyMap<string, readonly number[]>;
  readonly facts: ProjectFacts;
  /** Told each name looked up project-wide for a file (a symbol of that name elsewhere could change the answer). */
  readonly onGlobalName?: (file: string, name: string) => void;
  /** Told each file whose declarations an answer for `file` read beyond its imports (receiver types). */
  readonly onRead?: (file: string, read: string) => void;
}

export interface NameResolver {
  /** The symbol declared in `file` with this qualified name. */
  local(file: string, qualified: string): number | undefined;
  /** The symbol `name` (as written inside the symbol `from` of `file`; `via`: RawEdge.via) refers to, if certain. */
  resolve(file: string, from: string, name: string, via?: string): number | undefined;
  /**
   * For a method call `name` that did not resolve: the project's methods of that name (at most a
   * few), when the receiver could be one of them (not a value imported from outside the project).
   */
  possible(file: string, from: string, name: string): readonly number[];
  /** The project files an import source of `file` names. */
  targets(file: string, source: string): readonly string[];
}

const SELF_NAMES = new Set(['this', 'self', 'Self']);
const MAX_REEXPORT_DEPTH = 8;
/** A method name defined in more classes than this says nothing about which one a call means. */
const MAX_POSSIBLE = 8;
const TYPE_KINDS = new Set(['class', 'interface', 'type', 'enum', 'namespace', 'module']);

function relativeImport(fromFile: string, source: string, ctx: ImportResolveContext): readonly string[] {
  if (!source.startsWith('.')) return [];
  const target = posix.normalize(posix.join(posix.dirname(fromFile), source));
  return ctx.files.has(target) ? [target] : [];
}

export function createNameResolver(input: ResolverInput): NameResolver {
  const { files, symbols, byFile, byName, facts } = input;
  const ctx: ImportResolveContext = { files: new Set(files.keys()), facts };
  const locals = new Map<string, Map<string, number>>();
  const importTargets = new Map<string, readonly string[]>();

  const localTable = (file: string): Map<string, number> => {
    let table = locals.get(file);
    if (!table) {
      table = new Map();
      for (const id of byFile.get(file) ?? []) {
        const q = symbols[id]!.qualified;
        if (!table.has(q)) table.set(q, id);
      }
      locals.set(file, table);
    }
    return table;
  };
  const local = (file: string, qualified: string): number | undefined => localTable(file).get(qualified);

  const targetsOf = (file: string, source: string): readonly string[] => {
    const key = `${file}\0${source}`;
    let hit = importTargets.get(key);
    if (!hit) {
      const plugin = files.get(file)?.plugin;
      try {
        hit = plugin?.resolveImport ? plugin.resolveImport(file, source, ctx) : relativeImport(file, source, ctx);
      } catch {
        hit = []; // a plugin that fails on one import leaves it unresolved, not the graph unbuilt
      }
      hit = hit.filter((f) => files.has(f));
      importTargets.set(key, hit);
    }
    return hit;
  };

  /** A name as seen from outside `file`: its own top-level declaration, or one it re-exports. */
  const exportedCache = new Map<string, number | undefined>();
  // Barrels re-export barrels: remember answers, or `export *` chains are walked again and again.
  const exported = (file: string, name: string, depth: number): number | undefined => {
    const key = `${file}\0${name}`;
    if (exportedCache.has(key)) return exportedCache.get(key);
    const id = exportedUncached(file, name, depth);
    if (depth === 0 || id !== undefined) exportedCache.set(key, id);
    return id;
  };
  const exportedUncached = (file: string, name: string, depth: number): number | undefined => {
    if (depth > MAX_REEXPORT_DEPTH) return undefined;
    const entry = files.get(file);
    if (!entry) return undefined;
    if (name === 'default') {
      const id = (byFile.get(file) ?? []).find((i) => symbols[i]!.isDefault);
      if (id !== undefined) return id;
    } else {
      const id = local(file, name);
      if (id !== undefined && !symbols[id]!.container) return id;
    }
    for (const imp of entry.index.imports) {
      if (!imp.reexport) continue;
      const names = Object.keys(imp.names);
      if (names.length > 0 && imp.names[name] === undefined) continue;
      const imported = names.length > 0 ? imp.names[name]! : name;
      if (imported === '*') continue;
      for (const target of targetsOf(file, imp.source)) {
        const id = exported(target, imported, depth + 1);
        if (id !== undefined) return id;
      }
    }
    return undefined;
  };

  /** `Foo` then `.bar.baz`: members by qualified name in the declaring file; the head if a member is unknown. */
  const member = (file: string, head: number, rest: readonly string[]): number => {
    if (rest.length === 0) return head;
    const sym = symbols[head]!;
    const id = local(sym.file, `${sym.qualified}.${rest.join('.')}`);
    if (id !== undefined) return id;
    // A base class's member, a method in another file of the package, a field's type's member.
    const type = TYPE_KINDS.has(sym.kind) ? head : receivers.typeOfValue(file, head, false);
    const typed = type === undefined ? undefined : receivers.chain(file, type, rest);
    return typed ?? local(sym.file, `${sym.qualified}.${rest[0]}`) ?? head;
  };

  const uniqueCache = new Map<string, number | undefined>();
  const unique = (file: string, name: string, moduleScoped: boolean): number | undefined => {
    const entry = files.get(file);
    const key = `${entry?.plugin?.name}\0${moduleScoped}\0${entry?.index.packageScoped === true}\0${posix.dirname(file)}\0${name}`;
    if (uniqueCache.has(key)) return uniqueCache.get(key);
    const found = uniqueUncached(file, name, moduleScoped);
    uniqueCache.set(key, found);
    return found;
  };
  const uniqueUncached = (file: string, name: string, moduleScoped: boolean): number | undefined => {
    if (!byName.has(name)) return undefined;
    const plugin = files.get(file)?.plugin?.name;
    const candidates = (byName.get(name) ?? []).filter((id) => {
      const s = symbols[id]!;
      const owner = files.get(s.file);
      if (s.container || owner?.plugin?.name !== plugin) return false;
      // From an ES module, only scripts' globals are visible without an import.
      return !moduleScoped || !owner?.index.moduleScoped;
    });
    const packageScoped = files.get(file)?.index.packageScoped === true;
    if (candidates.length === 1 && !packageScoped) return candidates[0];
    const dir = posix.dirname(file);
    const near = candidates.filter((id) => posix.dirname(symbols[id]!.file) === dir);
    return near.length === 1 ? near[0] : undefined;
  };

  // Most names resolve the same wherever they sit in a file: cache per file and name.
  const perFile = new Map<string, Map<string, number | undefined>>();
  const resolve = (file: string, from: string, name: string): number | undefined => {
    const entry = files.get(file);
    if (!entry) return undefined;
    const dependsOnFrom = from.includes('.') && (SELF_NAMES.has(name.split('.', 1)[0]!) || entry.index.moduleScoped !== true);
    if (dependsOnFrom) return resolveUncached(entry, file, from, name);
    let cache = perFile.get(file);
    if (!cache) perFile.set(file, (cache = new Map()));
    if (cache.has(name)) return cache.get(name);
    const id = resolveUncached(entry, file, from, name);
    cache.set(name, id);
    return id;
  };

  const resolveUncached = (entry: IndexedFile, file: string, from: string, name: string): number | undefined => {
    const parts = name.split('.');
    const fromParts = from ? from.split('.') : [];
    if (SELF_NAMES.has(parts[0]!)) {
      if (fromParts.length < 2 || parts.length < 2) return undefined;
      const owner = fromParts.slice(0, -1).join('.');
      return local(file, `${owner}.${parts.slice(1).join('.')}`) ?? local(file, `${owner}.${parts[1]}`);
    }
    const direct = local(file, name);
    if (direct !== undefined) return direct;
    const moduleScoped = entry.index.moduleScoped === true;
    // Class- and namespace-scoped languages (Java, C#, C++) see enclosing scopes' names unqualified.
    if (!moduleScoped) {
      for (let i = fromParts.length - 1; i >= 1; i--) {
        const enclosing = local(file, `${fromParts.slice(0, i).join('.')}.${name}`);
        if (enclosing !== undefined) return enclosing;
      }
    }
    const head = local(file, parts[0]!);
    if (head !== undefined) return member(file, head, parts.slice(1));
    for (let k = parts.length; k >= 1; k--) {
      const written = parts.slice(0, k).join('.');
      for (const imp of entry.index.imports) {
        const imported = imp.names[written];
        if (imported === undefined) continue;
        const targets = targetsOf(file, imp.source);
        const rest = parts.slice(k);
        for (const target of targets) {
          if (imported === '*') {
            if (rest.length === 0) return undefined;
            const id = exported(target, rest[0]!, 0);
            if (id !== undefined) return member(file, id, rest.slice(1));
          } else {
            const id = exported(target, imported, 0);
            if (id !== undefined) return member(file, id, rest);
          }
        }
        // Imported from outside the project (or not found there): never guess a same-named symbol.
        return undefined;
      }
    }
    input.onGlobalName?.(file, parts[0]!);
    const global = unique(file, parts[0]!, moduleScoped);
    return global === undefined ? undefined : member(file, global, parts.slice(1));
  };

  const receivers = createReceiverTypes({
    files, symbols, byName, local,
    resolveName: (file, from, name) => resolve(file, from, name),
    onRead: (file, read) => {
      if (read !== file) input.onRead?.(file, read);
    },
  });

  const typedResolve = (file: string, from: string, name: string, via: string): number | undefined => {
    if (via === '?') return undefined;
    const parts = name.split('.');
    if (via === 'super()') {
      // The member as the enclosing class's bases have it.
      const ownerName = from.split('.').slice(0, -1).join('.');
      const owner = ownerName ? local(file, ownerName) ?? resolve(file, '', ownerName) : undefined;
      return owner === undefined ? undefined : receivers.inBases(file, owner, parts.slice(1));
    }
    const type = receivers.valueType(file, from, via);
    if (type === undefined || parts.length < 2) return undefined;
    return receivers.chain(file, type, parts.slice(1));
  };

  const resolveWithVia = (file: string, from: string, name: string, via?: string): number | undefined => {
    if (via !== undefined) return typedResolve(file, from, name, via);
    const parts = name.split('.');
    // `self.store.get()`, or a method the class inherits: through the class's fields and bases.
    if (SELF_NAMES.has(parts[0]!) && parts.length >= 2 && from.includes('.')) {
      const ownerName = from.split('.').slice(0, -1).join('.');
      // Go methods and Rust impls may sit in another file than their type.
      const owner = local(file, ownerName) ?? resolve(file, '', ownerName);
      const direct = parts.length === 2 ? resolve(file, from, name) : undefined;
      if (direct !== undefined) return direct;
      const typed = owner === undefined ? undefined : receivers.chain(file, owner, parts.slice(1));
      return typed ?? resolve(file, from, name);
    }
    return resolve(file, from, name);
  };

  const possible = (file: string, from: string, name: string): readonly number[] => {
    const parts = name.split('.');
    if (parts.length < 2) return [];
    const head = parts[0]!;
    const entry = files.get(file);
    // A value imported from a package outside the project: its methods are not the project's.
    if (!SELF_NAMES.has(head) && entry?.index.imports.some((imp) => imp.names[head] !== undefined && targetsOf(file, imp.source).length === 0)) return [];
    const method = parts[parts.length - 1]!;
    input.onGlobalName?.(file, method);
    const plugin = entry?.plugin?.name;
    const candidates = (byName.get(method) ?? []).filter((id) => {
      const s = symbols[id]!;
      return s.container !== undefined && (s.kind === 'method' || s.kind === 'function') && files.get(s.file)?.plugin?.name === plugin;
    });
    return candidates.length <= MAX_POSSIBLE ? candidates : [];
  };

  return { local, resolve: resolveWithVia, possible, targets: targetsOf };
}
