/**
 * /policy why PATH and /policy why COMMAND name the rule that decides and why, and agree with what
 * a real call then gets: over real files in a temp project and the real bash tool.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { explainCommand, explainPath, looksLikePath } from '../../src/slash/policy-why.js';
import { bashTool } from '../../src/tools/bash.js';
import { readFileTool } from '../../src/tools/read-file.js';
import { makePolicy } from '../tools/make-config.js';
import { makeContext, makeTempDir } from '../tools/make-context.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir('lwyrm-why-');
  outside = await makeTempDir('lwyrm-why-out-');
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'src', 'a.ts'), 'export {};\n');
  await writeFile(path.join(outside, 'secret.txt'), 'PRIVATE\n');
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'notes.txt'));
});

const text = (lines: readonly string[]): string => lines.join('\n');

describe('/policy why PATH', () => {
  it('names the default, a path rule, read_outside through a symlink, and a grant', async () => {
    const ctx = makeContext(root, { config: { policy: makePolicy({ rules: [{ path: path.join(root, 'src'), write: 'allow' }] }) } });
    const src = text(await explainPath('src/a.ts', ctx));
    expect(src).toContain(`${path.join(root, 'src', 'a.ts')} (inside the project)`);
    expect(src).toMatch(/write: allow — path rule: rule .*src/);
    expect(src).toMatch(/delete: confirm \(asked\) — default: default delete=confirm/);

    // The link is judged by where it leads, and read_outside decides — as a read then does.
    const link = text(await explainPath('notes.txt', ctx));
    expect(link).toContain(`${path.join(outside, 'secret.txt')} (outside the project)`);
    expect(link).toMatch(/read: confirm \(asked\) — read_outside/);
    expect(link).toMatch(/\[a\]lways cannot cover it/);
    await readFileTool.run({ path: 'notes.txt' }, ctx);
    expect(ctx.asked).toHaveLength(1);

    ctx.sessionGrants.add('delete');
    expect(text(await explainPath('src/a.ts', ctx))).toMatch(/delete: allow — grant: \[a\]lways delete this session \(over default/);
  });

  it('names --allow and --read-only when they decide, and a file that is always asked about', async () => {
    const allowed = makeContext(root, { preApproved: ['write'] });
    expect(text(await explainPath('src/a.ts', allowed))).toMatch(/write: allow — --allow write \(over default/);
    expect(text(await explainPath('.git/config', allowed))).toMatch(/write: confirm \(asked\) — always asked \(a file that makes other programs run code\)/);
    const readOnly = makeContext(root, { readOnly: true });
    expect(text(await explainPath('src/a.ts', readOnly))).toMatch(/write: deny — read-only session \(--read-only\)/);
  });

  it('tells a path from a command', async () => {
    expect(await looksLikePath('src/a.ts', root)).toBe(true);
    expect(await looksLikePath('~/.ssh/id_rsa', root)).toBe(true);
    expect(await looksLikePath('npm test', root)).toBe(false);
    expect(await looksLikePath('pytest', root)).toBe(false);
  });
});

describe('/policy why COMMAND', () => {
  it('names the denylist entry, the default, a grant per part, and a flag the grant does not cover', async () => {
    const ctx = makeContext(root, { answer: 'no', config: { policy: makePolicy({ bashDenylist: ['rm -rf /'] }) } });
    expect(text(await explainCommand('rm -fr /', ctx))).toMatch(/deny — denylist entry rm -rf \//);

    const asked = text(await explainCommand('npm test', ctx));
    expect(asked).toMatch(/confirm \(asked\) — default: bash=confirm/);
    expect(asked).toMatch(/\[a\]lways would grant: npm test …/);

    ctx.sessionGrants.addBash([{ words: ['npm', 'test'], match: 'prefix' }]);
    const covered = text(await explainCommand('npm test -- -u', ctx));
    expect(covered).toMatch(/allow — every part is covered/);
    expect(covered).toMatch(/npm test -- -u: grant npm test … \(this session\)/);

    const mixed = text(await explainCommand('npm test && curl https://example.invalid', ctx));
    expect(mixed).toMatch(/confirm \(asked\)/);
    expect(mixed).toMatch(/npm test: grant npm test/);
    expect(mixed).toMatch(/curl https:\/\/example\.invalid: not covered/);
    // What it said is what a call gets: asked.
    await bashTool.run({ command: 'npm test && curl https://example.invalid' }, ctx);
    expect(ctx.asked).toHaveLength(1);

    ctx.sessionGrants.addBash([{ words: ['git', 'push'], match: 'prefix' }]);
    expect(text(await explainCommand('git push --force origin main', ctx))).toMatch(/git push --force origin main: flag — .*git push … \(grant\) does not cover it/);
  });

  it('names the allowlist entry, a saved rule, [e]very and --allow bash', async () => {
    const listed = makeContext(root, { config: { policy: makePolicy({ bashAllowlist: ['git status'], bashRules: [{ words: ['cargo', 'build'], match: 'prefix' }] }) } });
    expect(text(await explainCommand('git status', listed))).toMatch(/allow — allowlist entry git status/);
    expect(text(await explainCommand('cargo build --release', listed))).toMatch(/cargo build --release: saved rule cargo build … \(your config\)/);
    listed.sessionGrants.add('bash');
    expect(text(await explainCommand('curl https://example.invalid', listed))).toMatch(/allow — grant: \[e\]very command this session/);
    expect(text(await explainCommand('ls', makeContext(root, { preApproved: ['bash'] })))).toMatch(/allow — --allow bash/);
  });
});
