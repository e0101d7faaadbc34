/** Turns one TS/JS source file into symbols, raw edges and imports (syntax only, no type check). */
import type * as TS from 'typescript';
import { assignedDeclaration, moduleObjects } from './ts-commonjs.js';
import { annotatedType, collectEdges, dottedName, valueType, type EdgeSink } from './ts-references.js';
import type { EdgeKind, FileIndex, ImportInfo, RawEdge, SymbolInfo, SymbolKind } from './types.js';
import { declarationSignature, docFirstLine, headerUntil } from './ts-signature.js';

type Ts = typeof TS;

interface Walk {
  readonly ts: Ts;
  readonly sf: TS.SourceFile;
  readonly symbols: SymbolInfo[];
  readonly imports: ImportInfo[];
  readonly sink: EdgeSink;
  readonly exportedNames: Set<string>;
  /** JavaScript only: the top-level objects the module exports (their assigned methods are exported). */
  readonly moduleObjects?: ReadonlySet<string>;
}

/** As `ts.getModifiers(node)?.some(…)`, without the filtered copy getModifiers makes (decorators never match a keyword). */
function hasModifier(ts: Ts, node: TS.Node, kind: TS.SyntaxKind): boolean {
  if (!ts.canHaveModifiers(node)) return false;
  const modifiers = node.modifiers;
  if (!modifiers) return false;
  for (let i = 0; i < modifiers.length; i++) if (modifiers[i]!.kind === kind) return true;
  return false;
}

/** The declared type of a property or variable, or the return type of a function (SymbolInfo.type). */
function declaredType(ts: Ts, node: TS.Node): string | undefined {
  if (ts.isVariableStatement(node) && node.declarationList.declarations.length === 1) return declaredType(ts, node.declarationList.declarations[0]!);
  if (ts.isPropertyDeclaration(node) || ts.isVariableDeclaration(node) || ts.isPropertySignature(node)) {
    const init = 'initializer' in node ? node.initializer : undefined;
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return annotatedType(ts, init.type);
    return annotatedType(ts, node.type) ?? valueType(ts, init);
  }
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isMethodSignature(node)) return annotatedType(ts, node.type);
  return undefined;
}

function addSymbol(w: Walk, node: TS.Node, name: string, kind: SymbolKind, exported: boolean,
  container: string | undefined, signature: string): void {
  const { ts, sf } = w;
  // The declaration's own line, not its doc comment's: map lines and tool answers point at the code.
  const startLine = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const endLine = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
  const doc = docFirstLine(ts, sf, node);
  const isDefault = hasModifier(ts, node, ts.SyntaxKind.DefaultKeyword) || undefined;
  const prev = w.symbols[w.symbols.length - 1];
  // Overloads: one symbol spanning every declaration, showing the signatures callers can use.
  if (prev && prev.name === name && prev.container === container && prev.kind === kind
    && (kind === 'function' || kind === 'method') && prev.endLine <= startLine) {
    const hasBody = (node as TS.FunctionLikeDeclaration).body !== undefined;
    w.symbols[w.symbols.length - 1] = {
      ...prev, endLine, exported: prev.exported || exported,
      signature: hasBody ? prev.signature : `${prev.signature}\n${signature}`,
    };
    return;
  }
  const type = declaredType(ts, node);
  w.symbols.push({
    name, kind, startLine, endLine, exported, ...(container ? { container } : {}),
    signature: doc ? `/** ${doc} */\n${signature}` : signature, ...(isDefault ? { isDefault } : {}), ...(type ? { type } : {}),
  });
}

function heritage(w: Walk, node: TS.ClassLikeDeclaration | TS.InterfaceDeclaration, from: string): void {
  const { ts, sf } = w;
  for (const clause of node.heritageClauses ?? []) {
    const kind: EdgeKind = clause.token === ts.SyntaxKind.ImplementsKeyword ? 'implements' : 'extends';
    for (const type of clause.types) {
      const name = dottedName(ts, type.expression);
      const line = sf.getLineAndCharacterOfPosition(type.getStart(sf)).line + 1;
      if (name !== undefined) w.sink.add(from, name, kind, line);
      for (const arg of type.typeArguments ?? []) collectEdges(ts, sf, arg, from, w.sink);
    }
  }
}

function memberName(ts: Ts, name: TS.PropertyName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) {
    return name.text;
  }
  return undefined;
}

function classLike(w: Walk, node: TS.ClassLikeDeclaration, name: string, exported: boolean, container?: string): void {
  const { ts, sf } = w;
  const qualified = container ? `${container}.${name}` : name;
  addSymbol(w, node, name, 'class', exported, container, headerUntil(sf, node, node.members.pos, '{'));
  heritage(w, node, qualified);
  for (const member of node.members) {
    const isCtor = ts.isConstructorDeclaration(member);
    const mName = isCtor ? 'constructor' : memberName(ts, member.name);
    if (mName === undefined) continue;
    const isPrivate = hasModifier(ts, member, ts.SyntaxKind.PrivateKeyword) || mName.startsWith('#');
    const isMethod = isCtor || ts.isMethodDeclaration(member) || ts.isGetAccessor(member) || ts.isSetAccessor(member);
    const kind: SymbolKind = isMethod ? 'method' : 'property';
    addSymbol(w, member, mName, kind, exported && !isPrivate, qualified, declarationSignature(ts, sf, member));
    collectEdges(ts, sf, member, `${qualified}.${mName}`, w.sink);
  }
}

function variableStatement(w: Walk, node: TS.VariableStatement, exported: boolean, container?: string): void {
  const { ts, sf } = w;
  for (const decl of node.declarationList.declarations) {
    if (!ts.isIdentifier(decl.name)) {
      requireImport(w, decl);
      collectEdges(ts, sf, decl, container ?? '', w.sink);
      continue;
    }
    const name = decl.name.text;
    const init = decl.initializer && skipParens(ts, decl.initializer);
    const isFn = init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
    const isExported = exported || w.exportedNames.has(name);
    if (init && ts.isClassExpression(init)) {
      classLike(w, init, name, isExported, container);
      continue;
    }
    if (requireImport(w, decl)) continue;
    if (!isFn && !isExported && !container) {
      collectEdges(ts, sf, decl, '', w.sink);
      continue;
    }
    const keyword = (node.declarationList.flags & ts.NodeFlags.Const) !== 0 ? 'const' : 'let';
    const prefix = exported ? 'export ' : '';
    const signature = prefix + keyword + ' ' + declarationSignature(ts, sf, decl);
    // Anchor the range on the statement so the `export const` line and its doc are included.
    const anchor = node.declarationList.declarations.length === 1 ? node : decl;
    addSymbol(w, anchor, name, isFn ? 'function' : 'variable', isExported, container, signature);
    const qualified = container ? `${container}.${name}` : name;
    if (decl.type) collectEdges(ts, sf, decl.type, qualified, w.sink);
    if (init) collectEdges(ts, sf, init, qualified, w.sink);
  }
}

function skipParens(ts: Ts, e: TS.Expression): TS.Expression {
  let cur = e;
  while (ts.isParenthesizedExpression(cur) || ts.isAsExpression(cur) || ts.isSatisfiesExpression(cur)) cur = cur.expression;
  return cur;
}

/** `const x = require('./y')` and `const {a, b: c} = require('./y')` are imports in CommonJS. */
function requireImport(w: Walk, decl: TS.VariableDeclaration): boolean {
  const { ts } = w;
  const init = decl.initializer;
  if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'require') return false;
  const arg = init.arguments[0];
  if (!arg || !ts.isStringLiteralLike(arg)) return false;
  const names: Record<string, string> = {};
  if (ts.isIdentifier(decl.name)) names[decl.name.text] = '*';
  else if (ts.isObjectBindingPattern(decl.name)) {
    for (const el of decl.name.elements) {
      if (!ts.isIdentifier(el.name)) continue;
      const imported = el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : el.name.text;
      names[el.name.text] = imported;
    }
  }
  w.imports.push({ source: arg.text, names });
  return true;
}

function importDeclaration(w: Walk, node: TS.ImportDeclaration): void {
  const { ts, sf } = w;
  if (!ts.isStringLiteral(node.moduleSpecifier)) return;
  const names: Record<string, string> = {};
  const clause = node.importClause;
  if (clause?.name) names[clause.name.text] = 'default';
  const bindings = clause?.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names[bindings.name.text] = '*';
  if (bindings && ts.isNamedImports(bindings)) {
    for (const el of bindings.elements) names[el.name.text] = (el.propertyName ?? el.name).text;
  }
  w.imports.push({ source: node.moduleSpecifier.text, names });
  const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  for (const local of Object.keys(names)) w.sink.add('', local, 'imports', line);
}

function exportDeclaration(w: Walk, node: TS.ExportDeclaration): void {
  const { ts } = w;
  const clause = node.exportClause;
  if (!node.moduleSpecifier) {
    if (!clause || !ts.isNamedExports(clause)) return;
    // `export { A as B }`: B is A, seen from other files (a re-export of this file's own A).
    const aliases: Record<string, string> = {};
    for (const el of clause.elements) if (el.propertyName && el.propertyName.text !== el.name.text) aliases[el.name.text] = el.propertyName.text;
    if (Object.keys(aliases).length > 0) w.imports.push({ source: `./${w.sf.fileName.split('/').pop()!}`, names: aliases, reexport: true });
    return;
  }
  if (!ts.isStringLiteral(node.moduleSpecifier)) return;
  const names: Record<string, string> = {};
  if (clause && ts.isNamedExports(clause)) for (const el of clause.elements) names[el.name.text] = (el.propertyName ?? el.name).text;
  if (clause && ts.isNamespaceExport(clause)) names[clause.name.text] = '*';
  w.imports.push({ source: node.moduleSpecifier.text, names, reexport: true });
}

function statements(w: Walk, list: readonly TS.Statement[], container: string | undefined, inExported: boolean): void {
  const { ts, sf } = w;
  for (const st of list) {
    const exported = (container ? inExported : true) && (hasModifier(ts, st, ts.SyntaxKind.ExportKeyword));
    const named = (n: { name?: TS.Identifier }): string | undefined => n.name?.text;
    const qualify = (name: string): string => (container ? `${container}.${name}` : name);
    const isExported = (name: string): boolean => exported || (!container && w.exportedNames.has(name));
    if (ts.isFunctionDeclaration(st)) {
      const name = named(st) ?? (hasModifier(ts, st, ts.SyntaxKind.DefaultKeyword) ? 'default' : undefined);
      if (!name) continue;
      addSymbol(w, st, name, 'function', isExported(name), container, declarationSignature(ts, sf, st));
      collectEdges(ts, sf, st, qualify(name), w.sink);
    } else if (ts.isClassDeclaration(st)) {
      const name = named(st) ?? 'default';
      classLike(w, st, name, isExported(name), container);
    } else if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) {
      const name = st.name.text;
      const kind: SymbolKind = ts.isInterfaceDeclaration(st) ? 'interface' : ts.isTypeAliasDeclaration(st) ? 'type' : 'enum';
      addSymbol(w, st, name, kind, isExported(name), container, declarationSignature(ts, sf, st));
      if (ts.isInterfaceDeclaration(st)) {
        heritage(w, st, qualify(name));
        for (const m of st.members) {
          // Members are symbols too: `router.add()` on a Router is a use of Router.add.
          const mName = ts.isMethodSignature(m) || ts.isPropertySignature(m) ? memberName(ts, m.name) : undefined;
          if (mName !== undefined) {
            addSymbol(w, m, mName, ts.isMethodSignature(m) ? 'method' : 'property', isExported(name), qualify(name), declarationSignature(ts, sf, m));
            collectEdges(ts, sf, m, `${qualify(name)}.${mName}`, w.sink);
          } else collectEdges(ts, sf, m, qualify(name), w.sink);
        }
      } else collectEdges(ts, sf, st, qualify(name), w.sink);
    } else if (ts.isModuleDeclaration(st) && ts.isIdentifier(st.name)) {
      const name = st.name.text;
      addSymbol(w, st, name, 'namespace', isExported(name), container, headerUntil(sf, st, st.body?.pos ?? st.end, '{'));
      let body = st.body;
      let inner = qualify(name);
      while (body && ts.isModuleDeclaration(body)) { inner = `${inner}.${body.name.text}`; body = body.body; }
      if (body && ts.isModuleBlock(body)) statements(w, body.statements, inner, isExported(name));
    } else if (ts.isVariableStatement(st)) {
      variableStatement(w, st, exported, container);
    } else if (ts.isImportDeclaration(st)) {
      importDeclaration(w, st);
    } else if (ts.isExportDeclaration(st)) {
      exportDeclaration(w, st);
    } else if (ts.isImportEqualsDeclaration(st) && ts.isExternalModuleReference(st.moduleReference)
      && ts.isStringLiteral(st.moduleReference.expression)) {
      w.imports.push({ source: st.moduleReference.expression.text, names: { [st.name.text]: '*' } });
    } else if (w.moduleObjects && !container && ts.isExpressionStatement(st) && assigned(w, st)) {
      continue;
    } else {
      collectEdges(ts, sf, st, container ?? '', w.sink);
    }
  }
}

/** A JavaScript assignment that declares something (module.exports, prototype methods): a symbol. */
function assigned(w: Walk, st: TS.ExpressionStatement): boolean {
  const { ts, sf } = w;
  const d = assignedDeclaration(ts, sf, st, w.moduleObjects!);
  if (!d) return false;
  addSymbol(w, st, d.name, d.kind, d.exported, d.container, d.signature);
  if (d.isDefault) w.symbols[w.symbols.length - 1] = { ...w.symbols[w.symbols.length - 1]!, isDefault: true };
  collectEdges(ts, sf, d.value, d.container ? `${d.container}.${d.name}` : d.name, w.sink);
  return true;
}

export function scriptKindFor(ts: Ts, path: string): TS.ScriptKind {
  if (/\.tsx$/i.test(path)) return ts.ScriptKind.TSX;
  if (/\.(jsx)$/i.test(path)) return ts.ScriptKind.JSX;
  if (/\.(js|mjs|cjs)$/i.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

export function indexTypeScriptSource(ts: Ts, path: string, source: string): FileIndex {
  // JSDoc is read as text (docFirstLine): parsing it into nodes was a sixth of the parse, for nothing.
  const sf = ts.createSourceFile(path, source, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, scriptKindFor(ts, path));
  const edges: RawEdge[] = [];
  const seen = new Set<string>();
  const sink: EdgeSink = {
    add(from, to, kind, line, via) {
      const key = `${from}\0${to}\0${kind}\0${line}`;
      if (seen.has(key)) return;
      seen.add(key);
      edges.push({ from, to, kind, line, ...(via ? { via } : {}) });
    },
  };
  const exportedNames = new Set<string>();
  // `export { a, b }` lists can come after the declarations they export: collect them first.
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) exportedNames.add((el.propertyName ?? el.name).text);
    }
    if (ts.isExportAssignment(st) && ts.isIdentifier(st.expression)) exportedNames.add(st.expression.text);
  }
  const js = /\.(js|jsx|mjs|cjs)$/i.test(path);
  const w: Walk = { ts, sf, symbols: [], imports: [], sink, exportedNames, ...(js ? { moduleObjects: moduleObjects(ts, sf) } : {}) };
  statements(w, sf.statements, undefined, true);
  for (const st of sf.statements) {
    if (!ts.isExportAssignment(st) || !ts.isIdentifier(st.expression)) continue;
    const target = st.expression.text;
    const i = w.symbols.findIndex((s) => s.name === target && !s.container);
    if (i >= 0) w.symbols[i] = { ...w.symbols[i]!, isDefault: true };
  }
  const moduleScoped = w.imports.length > 0 || w.symbols.some((s) => s.exported) || exportedNames.size > 0
    || sf.statements.some((s) => ts.isExportAssignment(s)) || (w.moduleObjects?.size ?? 0) > 0;
  return { symbols: w.symbols, edges, imports: w.imports, moduleScoped };
}
