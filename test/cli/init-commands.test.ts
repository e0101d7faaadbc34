/**
 * --init and /init look at the project: the starter AGENTS.md carries the commands its own files
 * name (package.json scripts with the right package manager, pyproject / tox / nox, Cargo, go.mod,
 * Makefile, justfile, CI workflows), never a fixed `npm test` in a project that has no npm, and an
 * existing file is never overwritten. Real files in temp dirs, through `main` and the slash command.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeStarterAgentsFile } from '../../src/cli/init-agents.js';
import { main } from '../../src/cli/main.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function project(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'lwyrm-init-'));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(root, name, '..'), { recursive: true });
    await writeFile(join(root, name), text);
  }
  return root;
}

async function init(root: string): Promise<string> {
  const result = await writeStarterAgentsFile(root);
  expect(result.written).toBe(true);
  return readFile(join(root, 'AGENTS.md'), 'utf8');
}

/** The lines of the first ```bash block under ## Commands. */
function commandLines(md: string): string[] {
  const section = md.slice(md.indexOf('## Commands'));
  const block = /```bash\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';
  return block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

describe('a starter AGENTS.md from the project', () => {
  it('a Python project gets its own runner and tools, not npm', async () => {
    const root = await project({
      'pyproject.toml': '[project]\nname = "shop"\n[build-system]\nrequires = ["hatchling"]\n[tool.pytest.ini_options]\naddopts = "-q"\n[tool.ruff]\nline-length = 100\n[tool.mypy]\nstrict = true\n',
      'uv.lock': '',
      'noxfile.py': 'import nox\n\n@nox.session\ndef tests(session):\n    session.run("pytest")\n\n@nox.session(python="3.12")\ndef lint(session):\n    session.run("ruff", "check")\n',
      'tox.ini': '[tox]\nenvlist = py311, py312\n',
    });
    const md = await init(root);
    const cmds = commandLines(md);
    expect(cmds).toEqual(expect.arrayContaining(['uv run pytest', 'uv run ruff check .', 'uv run mypy .', 'nox -s tests', 'nox -s lint', 'tox', 'uv build']));
    expect(md).not.toMatch(/\bnpm\b/);
    expect(md).toContain('envlist: py311, py312');
  });

  it('a Node project uses the package manager its lockfile names and only the scripts it has', async () => {
    const root = await project({
      'package.json': JSON.stringify({ scripts: { build: 'tsc -p .', test: 'vitest run', lint: 'eslint .', typecheck: 'tsc --noEmit' } }),
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
    });
    const cmds = commandLines(await init(root));
    expect(cmds).toEqual(['pnpm run build', 'pnpm test', 'pnpm run lint', 'pnpm run typecheck']);
  });

  it('Cargo, Go, a Makefile and a justfile give their commands; CI workflows say what CI runs', async () => {
    const root = await project({
      'Cargo.toml': '[workspace]\nmembers = ["core"]\n',
      'go.mod': 'module example.com/x\n\ngo 1.22\n',
      Makefile: '.PHONY: test\ntest:\n\tgo test ./...\nlint:\n\tgolangci-lint run\nVERSION := 1\n',
      justfile: 'fmt:\n    cargo fmt\n\nbuild target="debug":\n    cargo build\n',
      '.github/workflows/ci.yml': 'jobs:\n  test:\n    steps:\n      - uses: actions/checkout@v4\n      - run: cargo test --workspace\n      - name: lint\n        run: |\n          if [ -n "$X" ]; then\n            cargo clippy -- -D warnings\n          fi\n      - run: echo done\n',
      '.github/workflows/release.yml': 'jobs:\n  r:\n    steps:\n      - run: cargo publish\n',
    });
    const md = await init(root);
    const cmds = commandLines(md);
    expect(cmds).toEqual(
      expect.arrayContaining(['make test', 'make lint', 'just fmt', 'just build', 'cargo build --workspace', 'cargo test --workspace', 'cargo clippy --workspace --all-targets', 'go test ./...', 'go vet ./...']),
    );
    expect(cmds).not.toContain('make VERSION');
    const ci = md.slice(md.indexOf('What CI runs'));
    expect(ci).toContain('.github/workflows/ci.yml');
    expect(ci).toContain('cargo test --workspace');
    expect(ci).toContain('cargo clippy -- -D warnings');
    // Shell plumbing, setup noise and shipping workflows are left out.
    expect(ci).not.toMatch(/^if |^fi$|echo done|cargo publish/m);
  });

  it('says so when the project names no commands, and keeps a value from a cloned file on one safe line', async () => {
    const empty = await init(await project({ 'README.md': 'hi\n' }));
    expect(empty).toContain('No build, test or lint commands were found');
    expect(commandLines(empty)).toEqual([]);
    const hostile = await init(await project({ 'package.json': JSON.stringify({ scripts: { test: 'jest\u001b[2J```\nrm -rf ~', lint: 'eslint \u001b]0;owned\u0007 .' } }) }));
    // eslint-disable-next-line no-control-regex -- asserting no control characters were written
    expect(hostile).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    // A multi-line script is not offered as a command; the fence cannot be closed from inside.
    expect(hostile).not.toContain('rm -rf');
    expect(commandLines(hostile)).toEqual(['npm run lint']);
  });

  it('never overwrites an existing AGENTS.md, through --init and /init alike', async () => {
    const root = await project({ 'go.mod': 'module x\n', 'AGENTS.md': 'my own notes\n' });
    let stderr = '';
    const code = await main(['--init', '-C', root], { cwd: root, env: {}, interactive: false, version: '0', stdout: () => undefined, stderr: (s) => (stderr += s) });
    expect(code).toBe(1);
    expect(stderr).toContain('already exists');
    expect(await readFile(join(root, 'AGENTS.md'), 'utf8')).toBe('my own notes\n');
    const again = await writeStarterAgentsFile(root);
    expect(again).toMatchObject({ written: false, reason: expect.stringContaining('not overwriting') });
  });

  it('--init reports how many commands it found', async () => {
    const root = await project({ 'go.mod': 'module x\n' });
    let stdout = '';
    const code = await main(['--init', '-C', root], { cwd: root, env: {}, interactive: false, version: '0', stdout: (s) => (stdout += s), stderr: () => undefined });
    expect(code).toBe(0);
    expect(stdout).toMatch(/Wrote .*AGENTS\.md \(3 commands from the project's files; check them\)/);
  });
});
