/**
 * [a]lways on a command grants a prefix, judged per part of a compound command: through the real
 * bash tool and its gate, with real processes in a temp project.
 */
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantText, judgeSegments, proposeGrants, type SourcedGrant } from '../../src/policy/bash-grants.js';
import { parseCommand } from '../../src/policy/bash-segments.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/policy/types.js';
import { bashTool } from '../../src/tools/bash.js';
import type { CommandRunner } from '../../src/tools/types.js';
import { makePolicy } from '../tools/make-config.js';
import { makeContext, makeTempDir } from '../tools/make-context.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeTempDir('lwyrm-grants-');
  outside = await makeTempDir('lwyrm-grants-out-');
  await writeFile(path.join(outside, 'secret.txt'), 'PRIVATE\n');
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'notes.txt'));
});

/** Answers the first approval with `first`, every later one with no; records what ran. */
function session(first: ApprovalDecision, opts: { policy?: ReturnType<typeof makePolicy>; record?: string[] } = {}) {
  let answered = 0;
  const answer = (_req: ApprovalRequest): ApprovalDecision => (answered++ === 0 ? first : 'no');
  const ctx = makeContext(root, { answer, ...(opts.policy ? { config: { policy: opts.policy } } : {}) });
  if (opts.record === undefined) return ctx;
  const ran = opts.record;
  // For commands that must not really run here (npm test in an empty folder): record and succeed.
  const commands: CommandRunner = {
    run: async (o) => {
      ran.push(o.command);
      return { exitCode: 0, exitSignal: null, timedOut: false, interrupted: false };
    },
  };
  return Object.assign(ctx, { commands });
}

const run = (ctx: ReturnType<typeof makeContext>, command: string) => bashTool.run({ command }, ctx);

describe('[a]lways on a bash command', () => {
  it('after seq 1 3, a compound, another program, a chained curl and a wrapper are each asked', async () => {
    const ctx = session('always');
    expect((await run(ctx, 'seq 1 3')).content).toBe('1\n2\n3\n[exit code 0]');
    expect(ctx.asked).toHaveLength(1);
    expect(ctx.asked[0]?.always?.grants).toEqual([{ text: 'seq …', exact: false }]);
    for (const command of ['seq 1 3 && rm x', 'rm x', 'seq 1 3; curl https://example.invalid/', 'env X=1 seq 1 3']) {
      const before = ctx.asked.length;
      const result = await run(ctx, command);
      expect(ctx.asked.length, command).toBe(before + 1);
      expect(result.failure, command).toBe('denied');
    }
    // Each part as written, without the operators around it.
    expect(judgeSegments('seq 1 3 && rm x || ls | wc |& cat; id & pwd', [], []).segments.map((s) => s.text)).toEqual(['seq 1 3', 'rm x', 'ls', 'wc', 'cat', 'id', 'pwd']);
    // Asked again, and the prompt says why: the part no grant covers.
    expect(ctx.asked[1]?.reason).toMatch(/asked because rm x: no grant, rule or allowlist entry covers it/);
    expect(ctx.asked[4]?.reason).toMatch(/asked because env X=1 seq 1 3: /);
    // The grant itself holds: seq with other plain arguments is not asked.
    expect((await run(ctx, 'seq 2 4')).content).toBe('2\n3\n4\n[exit code 0]');
    expect(ctx.asked).toHaveLength(5);
  });

  it('after npm test, npm test -- -u is not asked; npm test --force and npm run test are', async () => {
    const ran: string[] = [];
    const ctx = session('always', { record: ran });
    await run(ctx, 'npm test');
    expect(ctx.asked[0]?.always?.grants).toEqual([{ text: 'npm test …', exact: false }]);
    await run(ctx, 'npm test -- -u');
    expect(ctx.asked).toHaveLength(1);
    expect(ran).toEqual(['npm test', 'npm test -- -u']);
    await run(ctx, 'npm test --force');
    await run(ctx, 'npm run test');
    expect(ctx.asked).toHaveLength(3);
    expect(ran).toHaveLength(2);
  });

  it('never installs a wildcard for the other part of a compound: git status && rm -rf ./tmp', async () => {
    const ran: string[] = [];
    const ctx = session('always', { record: ran });
    await run(ctx, 'git status && rm -rf ./tmp');
    expect(ctx.asked[0]?.always?.grants).toEqual([
      { text: 'git status …', exact: false },
      { text: 'rm -rf ./tmp', exact: true },
    ]);
    await run(ctx, 'rm -rf ./src');
    await run(ctx, 'rm -rf ./tmp ./other');
    expect(ctx.asked).toHaveLength(3);
    // Each part on its own is covered, and so is the same compound again.
    await run(ctx, 'git status --short');
    await run(ctx, 'rm -rf ./tmp');
    await run(ctx, 'git status; rm -rf ./tmp');
    expect(ctx.asked).toHaveLength(3);
  });

  it('offers nothing for a wrapper, an inline script, a heredoc or a redirection, and says why', async () => {
    for (const command of ['sudo ls', 'xargs ls', 'sh -c ls', 'bash -c "ls"', 'nice ls', 'timeout 5 ls', 'python -c "print(1)"', 'node -e 1', 'cat <<EOF\nhi\nEOF', 'ls > out.txt', 'X=1 ls']) {
      const proposal = proposeGrants(command, [], []);
      expect(proposal.grants, command).toEqual([]);
      expect(proposal.refused[0]?.why, command).toMatch(/wrapper|inline script|heredoc|redirection|variable set|standard input/);
    }
    const ctx = session('always');
    await run(ctx, 'env X=1 seq 1 3');
    expect(ctx.asked[0]?.alwaysGrants).toBe(false);
    expect(ctx.sessionGrants.size).toBe(0);
  });

  it('a prefix grant does not cover a substitution, a variable, a glob, ~ or an output file in a later command', async () => {
    const grants: SourcedGrant[] = [{ words: ['ls'], match: 'prefix', source: 'grant' }];
    for (const command of ['ls $(id)', 'ls `id`', 'ls $HOME', 'ls *', 'ls ~/.ssh', 'ls > out', 'ls >> out', 'ls | sh', 'ls\nrm x', 'ls & rm x', 'ls || rm x', 'ls <(id)', 'ls /etc', 'ls ../..']) {
      expect(judgeSegments(command, grants, []).covered, command).toBe(false);
    }
    for (const command of ['ls', 'ls -la src', 'ls 2>&1', 'ls 2>/dev/null', "ls 'a b'", 'ls "src" # a comment']) {
      expect(judgeSegments(command, grants, []).covered, command).toBe(true);
    }
  });

  it('keeps options that force, delete, write or run programs out of a prefix grant (the denylist still wins)', async () => {
    const push: SourcedGrant[] = [{ words: ['git', 'push'], match: 'prefix', source: 'grant' }];
    expect(judgeSegments('git push origin main', push, []).covered).toBe(true);
    for (const command of ['git push --force origin main', 'git push -f', 'git push --force-with-lease', 'git push --delete origin x', 'git push --mirror', 'git push --no-verify', 'git push --upload-pack=./evil']) {
      const verdict = judgeSegments(command, push, []);
      expect(verdict.covered, command).toBe(false);
      expect(verdict.segments[0]?.why, command).toMatch(/git push … \(grant\) does not cover it/);
    }
    // [a]lways on the forced push itself grants that exact command, not a prefix it would not fit.
    expect(proposeGrants('git push --force origin main', [], []).grants.map(grantText)).toEqual(['git push --force origin main']);
    const denied = session('always', { policy: makePolicy({ bashDenylist: ['git push --force'] }) });
    denied.sessionGrants.addBash([{ words: ['git', 'push'], match: 'prefix' }]);
    expect((await run(denied, 'git push --force')).content).toMatch(/denylist: git push --force/);
    expect(denied.asked).toHaveLength(0);
  });

  it('gives a program too wide for a prefix (rm, curl, chmod) the exact command only', () => {
    expect(proposeGrants('rm -rf build', [], []).grants).toEqual([{ words: ['rm', '-rf', 'build'], match: 'exact' }]);
    expect(proposeGrants('curl -s https://x.example/a', [], []).grants[0]?.match).toBe('exact');
    expect(proposeGrants('cargo build --release', [], []).grants.map(grantText)).toEqual(['cargo build …']);
    expect(proposeGrants('pytest -q tests', [], []).grants.map(grantText)).toEqual(['pytest …']);
    expect(proposeGrants('npm run lint', [], []).grants.map(grantText)).toEqual(['npm run lint …']);
    expect(proposeGrants('python -m pytest -x', [], []).grants.map(grantText)).toEqual(['python -m pytest …']);
  });

  it('a covered command with an argument that is a link out of the project is asked again', async () => {
    const ctx = session('always');
    await run(ctx, 'cat README.missing');
    expect(ctx.sessionGrants.bash().map(grantText)).toEqual(['cat …']);
    const r = await run(ctx, 'cat notes.txt');
    expect(ctx.asked).toHaveLength(2);
    expect(ctx.asked[1]?.reason).toMatch(/covered per command by grant: cat …, but notes.txt leads outside the project/);
    expect(r.content).not.toContain('PRIVATE');
  });

  it('[e]very grants every command of the session, and the request says so before', async () => {
    const ctx = session('every');
    await run(ctx, 'seq 1 2');
    expect(ctx.asked[0]?.every).toBe(true);
    await run(ctx, 'seq 1 3 && echo x > out.txt; env A=1 true');
    expect(ctx.asked).toHaveLength(1);
    expect(ctx.sessionGrants.has('bash')).toBe(true);
  });

  it('a no with words hands them to the model with the denial', async () => {
    const ctx = makeContext(root, { answer: () => 'no' });
    const words = makeContext(root);
    const noted = { ...words, approve: async () => ({ decision: 'no' as const, note: 'use make test instead' }) };
    const plain = await run(ctx, 'seq 1 3');
    expect(plain.content).toMatch(/declined/);
    const r = await run(noted, 'seq 1 3');
    expect(r.failure).toBe('denied');
    expect(r.content).toMatch(/They said:\nuse make test instead\n/);
    expect(r.summary).toBe('declined: use make test instead');
  });
});

describe('parseCommand', () => {
  it('splits at operators outside quotes and skips comments and heredoc bodies', () => {
    const parsed = parseCommand("echo 'a && b' \"c; d\" && ls # rm x\ncat <<EOF\nrm -rf /\nEOF\nwc -l");
    expect(parsed.problems).toEqual([]);
    expect(parsed.segments.map((s) => s.words)).toEqual([['echo', 'a && b', 'c; d'], ['ls'], ['cat'], ['wc', '-l']]);
  });

  it('cannot judge what it cannot read for certain', () => {
    expect(parseCommand("echo 'open").problems).not.toEqual([]);
    expect(parseCommand('cat <<EOF\nno end').problems).not.toEqual([]);
    expect(judgeSegments("ls 'open", [{ words: ['ls'], match: 'prefix', source: 'grant' }], []).covered).toBe(false);
  });
});
