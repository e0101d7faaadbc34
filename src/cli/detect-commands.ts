/**
 * What a project's own files say its build, test and lint commands are: package.json scripts (with
 * the package manager its lockfile names), pyproject.toml / tox.ini / noxfile.py, Cargo.toml,
 * go.mod, a Makefile or justfile. Read only, never run; every value is from an untrusted checkout,
 * so it is cut to one printable line.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { noEntries } from '../diagnostics/ignore-error.js';

export type CommandRole = 'build' | 'test' | 'lint' | 'typecheck' | 'format' | 'run';

export interface ProjectCommand {
  readonly role: CommandRole;
  readonly command: string;
  /** Where it came from: "package.json scripts.test: vitest run". */
  readonly source: string;
}

const MAX_LEN = 160;

/** One printable line, or undefined: a value that needs more is not a command to copy. */
export function oneLineCommand(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex -- controls and bidi overrides are what is being refused
  const clean = text.trim().replace(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ');
  if (clean === '' || text.trim().includes('\n')) return undefined;
  return clean.length > MAX_LEN ? `${clean.slice(0, MAX_LEN - 1)}…` : clean;
}

async function read(root: string, name: string): Promise<string | undefined> {
  try {
    const text = await readFile(join(root, name), 'utf8');
    // A huge file is not a config file anyone meant.
    return text.length > 1_000_000 ? undefined : text;
  } catch {
    return undefined;
  }
}

async function exists(root: string, name: string): Promise<boolean> {
  return (await read(root, name)) !== undefined;
}

const SCRIPT_ROLES: readonly (readonly [string, CommandRole])[] = [
  ['build', 'build'],
  ['compile', 'build'],
  ['test', 'test'],
  ['test:unit', 'test'],
  ['lint', 'lint'],
  ['typecheck', 'typecheck'],
  ['type-check', 'typecheck'],
  ['check', 'lint'],
  ['format', 'format'],
  ['fmt', 'format'],
  ['dev', 'run'],
  ['start', 'run'],
];

async function nodeCommands(root: string): Promise<ProjectCommand[]> {
  const text = await read(root, 'package.json');
  if (text === undefined) return [];
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return [];
  }
  const scripts = (pkg as { scripts?: unknown })?.scripts;
  if (typeof scripts !== 'object' || scripts === null) return [];
  const pm = (await exists(root, 'pnpm-lock.yaml')) ? 'pnpm' : (await exists(root, 'yarn.lock')) ? 'yarn' : (await exists(root, 'bun.lockb')) || (await exists(root, 'bun.lock')) ? 'bun' : 'npm';
  const out: ProjectCommand[] = [];
  for (const [name, role] of SCRIPT_ROLES) {
    const body = oneLineCommand((scripts as Record<string, unknown>)[name]);
    if (body === undefined || /no test specified/.test(body)) continue;
    const command = name === 'test' && pm !== 'bun' ? `${pm} test` : name === 'start' && pm !== 'bun' ? `${pm} start` : pm === 'yarn' ? `yarn ${name}` : `${pm} run ${name}`;
    out.push({ role, command, source: `package.json scripts.${name}: ${body}` });
  }
  return out;
}

function tomlOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function has(obj: unknown, ...path: string[]): boolean {
  let at: unknown = obj;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !(key in at)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

async function pythonCommands(root: string): Promise<ProjectCommand[]> {
  const pyproject = tomlOf(await read(root, 'pyproject.toml'));
  const tox = await read(root, 'tox.ini');
  const nox = await read(root, 'noxfile.py');
  const setupCfg = await read(root, 'setup.cfg');
  const out: ProjectCommand[] = [];
  if (nox !== undefined) {
    // @nox.session def lint(session): → nox -s lint
    const sessions = [...nox.matchAll(/@nox\.session[^\n]*\n(?:@[^\n]*\n)*\s*def\s+([A-Za-z_]\w*)/g)].map((m) => m[1]!);
    for (const name of sessions.slice(0, 8)) {
      const role: CommandRole = /test/.test(name) ? 'test' : /lint|ruff|flake|check/.test(name) ? 'lint' : /type|mypy|pyright/.test(name) ? 'typecheck' : /format|fmt|black/.test(name) ? 'format' : /build|docs/.test(name) ? 'build' : 'run';
      out.push({ role, command: `nox -s ${name}`, source: `noxfile.py session ${name}` });
    }
  }
  if (tox !== undefined) {
    const envs = /^\s*envlist\s*=\s*([^\n]+(?:\n[ \t]+[^\n]+)*)/m.exec(tox)?.[1];
    out.push({ role: 'test', command: 'tox', source: `tox.ini${envs ? ` envlist: ${oneLineCommand(envs.replace(/\s+/g, ' '))}` : ''}` });
  }
  if (!pyproject && tox === undefined && nox === undefined && setupCfg === undefined) return out;
  // The runner the project's lockfile names, so the tools come from its environment.
  const runner = (await exists(root, 'uv.lock')) ? 'uv run ' : has(pyproject, 'tool', 'poetry') || (await exists(root, 'poetry.lock')) ? 'poetry run ' : (await exists(root, 'pdm.lock')) ? 'pdm run ' : '';
  const hatchScripts = (pyproject?.['tool'] as { hatch?: { envs?: { default?: { scripts?: Record<string, unknown> } } } } | undefined)?.hatch?.envs?.default?.scripts;
  if (hatchScripts) {
    for (const name of ['test', 'lint', 'typecheck', 'fmt', 'format']) {
      if (typeof hatchScripts[name] === 'string' || Array.isArray(hatchScripts[name])) {
        const role: CommandRole = name === 'test' ? 'test' : name === 'lint' ? 'lint' : name === 'typecheck' ? 'typecheck' : 'format';
        out.push({ role, command: `hatch run ${name}`, source: `pyproject.toml [tool.hatch.envs.default.scripts] ${name}` });
      }
    }
  }
  const pytest = has(pyproject, 'tool', 'pytest') || (setupCfg !== undefined && /^\[tool:pytest\]/m.test(setupCfg)) || (await exists(root, 'pytest.ini')) || (tox !== undefined && /pytest/.test(tox));
  if (pytest && !out.some((c) => c.role === 'test' && c.command.startsWith('hatch'))) out.push({ role: 'test', command: `${runner}pytest`, source: 'pytest configuration' });
  if (has(pyproject, 'tool', 'ruff') || (await exists(root, 'ruff.toml'))) {
    out.push({ role: 'lint', command: `${runner}ruff check .`, source: 'ruff configuration' });
    out.push({ role: 'format', command: `${runner}ruff format .`, source: 'ruff configuration' });
  } else if (has(pyproject, 'tool', 'black')) {
    out.push({ role: 'format', command: `${runner}black .`, source: 'pyproject.toml [tool.black]' });
  }
  if (has(pyproject, 'tool', 'mypy') || (await exists(root, 'mypy.ini'))) out.push({ role: 'typecheck', command: `${runner}mypy .`, source: 'mypy configuration' });
  else if (has(pyproject, 'tool', 'pyright') || (await exists(root, 'pyrightconfig.json'))) out.push({ role: 'typecheck', command: `${runner}pyright`, source: 'pyright configuration' });
  if (has(pyproject, 'build-system')) out.push({ role: 'build', command: runner === 'uv run ' ? 'uv build' : runner === 'poetry run ' ? 'poetry build' : 'python -m build', source: 'pyproject.toml [build-system]' });
  return out;
}

async function rustCommands(root: string): Promise<ProjectCommand[]> {
  if (!(await exists(root, 'Cargo.toml'))) return [];
  const workspace = has(tomlOf(await read(root, 'Cargo.toml')), 'workspace');
  const all = workspace ? ' --workspace' : '';
  return [
    { role: 'build', command: `cargo build${all}`, source: 'Cargo.toml' },
    { role: 'test', command: `cargo test${all}`, source: 'Cargo.toml' },
    { role: 'lint', command: `cargo clippy${all} --all-targets`, source: 'Cargo.toml' },
    { role: 'format', command: 'cargo fmt --check', source: 'Cargo.toml' },
  ];
}

async function goCommands(root: string): Promise<ProjectCommand[]> {
  if (!(await exists(root, 'go.mod'))) return [];
  const out: ProjectCommand[] = [
    { role: 'build', command: 'go build ./...', source: 'go.mod' },
    { role: 'test', command: 'go test ./...', source: 'go.mod' },
    { role: 'lint', command: 'go vet ./...', source: 'go.mod' },
  ];
  const names = await readdir(root).catch(noEntries);
  if (names.some((n) => /^\.golangci\.(ya?ml|toml|json)$/.test(n))) out.push({ role: 'lint', command: 'golangci-lint run', source: 'golangci-lint configuration' });
  return out;
}

const TARGET_ROLES: Readonly<Record<string, CommandRole>> = {
  all: 'build', build: 'build', test: 'test', tests: 'test', check: 'test', lint: 'lint', typecheck: 'typecheck', fmt: 'format', format: 'format', run: 'run', dev: 'run',
};

/** Make targets / just recipes whose names say what they do. */
async function taskRunnerCommands(root: string): Promise<ProjectCommand[]> {
  const out: ProjectCommand[] = [];
  const makefile = (await read(root, 'Makefile')) ?? (await read(root, 'GNUmakefile')) ?? (await read(root, 'makefile'));
  if (makefile !== undefined) {
    const targets = new Set([...makefile.matchAll(/^([A-Za-z][\w.-]*)\s*:(?!=)/gm)].map((m) => m[1]!));
    for (const [name, role] of Object.entries(TARGET_ROLES)) if (targets.has(name)) out.push({ role, command: `make ${name}`, source: `Makefile target ${name}` });
  }
  const justfile = (await read(root, 'justfile')) ?? (await read(root, 'Justfile')) ?? (await read(root, '.justfile'));
  if (justfile !== undefined) {
    const recipes = new Set([...justfile.matchAll(/^@?([A-Za-z][\w-]*)(?:\s+[^:\n]*)?:(?!=)/gm)].map((m) => m[1]!));
    for (const [name, role] of Object.entries(TARGET_ROLES)) if (recipes.has(name)) out.push({ role, command: `just ${name}`, source: `justfile recipe ${name}` });
  }
  return out;
}

/** Every command the project's files name, task runners first (they are what its authors type). */
export async function detectProjectCommands(root: string): Promise<ProjectCommand[]> {
  const found = (await Promise.all([taskRunnerCommands(root), nodeCommands(root), pythonCommands(root), rustCommands(root), goCommands(root)])).flat();
  const seen = new Set<string>();
  return found.filter((c) => !seen.has(c.command) && seen.add(c.command));
}
