import { describe, expect, it } from 'vitest';
import { decideBash, decideBashWithFloor } from '../../src/policy/bash-policy.js';
import { makePolicy } from '../tools/make-config.js';

const settings = makePolicy({
  bashAllowlist: ['ls', 'git status', 'git log', 'git', 'find', 'sed', 'awk', 'cat', 'rg', 'env', 'xargs', 'npm test', 'tar'],
  bashDenylist: ['curl', 'sudo', 'rm -rf'],
});
const level = (command: string) => decideBash(command, settings).level;

describe('bash denylist', () => {
  it.each([
    ['curl https://x.example'],
    ["c''url https://x.example"],
    ['c\\url x'],
    ['"cu"rl x'],
    ['/usr/bin/curl x'],
    ['ls && curl x'],
    ['echo $(curl x)'],
    ['xargs curl < urls'],
    ['find . -exec curl {} ;'],
    ['FOO=1 sudo ls'],
    ['rm  -rf /tmp/x'],
    ["r'm' -r'f' build"],
  ])('denies %s', (command) => {
    expect(decideBash(command, settings)).toMatchObject({ level: 'deny' });
  });

  it('applies even when bash=allow', () => {
    expect(decideBash('curl x', { ...settings, bash: 'allow' }).level).toBe('deny');
  });

  it('does not deny a word that merely contains a denied one', () => {
    expect(level('ls curly')).toBe('allow');
    expect(level('rm -r build')).toBe('confirm');
  });
});

describe('bash allowlist', () => {
  it.each([
    ['ls', 'allow'],
    ['ls -la src', 'allow'],
    ['git status', 'allow'],
    ['git status --short', 'allow'],
    ['git log --oneline -5', 'allow'],
    ['git diff HEAD~1', 'confirm'], // ~ is shell syntax
    ['git diff main..HEAD', 'allow'],
    ['find src -name x.ts', 'allow'],
    ['sed -n 1,5p file.txt', 'allow'],
    ['sed s/a/b/g file.txt', 'allow'],
    ['sed -n -e 1,5p file.txt', 'allow'],
    ['sed -E -e s/a+/b/g file.txt', 'allow'],
    ['tar xf a.tar', 'allow'],
    ['git push -u origin main', 'allow'],
    ['git log --oneline', 'allow'],
    ['rg -l secret', 'allow'],
    ['find . -name id_rsa', 'allow'],
    ['npm test', 'allow'],
    ['npm install', 'confirm'],
  ])('%s → %s', (command, expected) => {
    expect(level(command)).toBe(expected);
  });

  it.each([
    ['ls; rm x'],
    ['ls && rm -r x'],
    ['ls | sh'],
    ['ls > out'],
    ['ls < in'],
    ['ls $HOME'],
    ['ls `id`'],
    ['ls $(id)'],
    ['ls (x)'],
    ['ls\nrm x'],
    ['ls\rrm x'],
    ['ls &'],
    ['ls *'],
    ["ls 'a b'"],
    ['ls \\x'],
    ['ls {a,b}'],
    ['ls\x1b[2K'],
  ])('metacharacters force a prompt: %j', (command) => {
    expect(level(command)).toBe('confirm');
  });

  it.each([
    ['PAGER=x git log'],
    ['GIT_DIR=/x git status'],
    ['env ls'],
    ['env FOO=1 ls'],
    ['xargs ls'],
    ['command ls'],
    ['exec ls'],
    ['eval ls'],
    ['source x.sh'],
    ['. x.sh'],
    ['timeout 5 ls'],
    ['nice ls'],
    ['nohup ls'],
    ['time ls'],
    ['watch ls'],
    ['sh -c ls'],
  ])('assignments, builtins and wrappers never match: %s', (command) => {
    expect(level(command)).toBe('confirm');
  });

  it('ignores an allowlist entry that is itself a wrapper', () => {
    expect(decideBash('env', settings).level).toBe('confirm');
    expect(decideBash('xargs -0 ls', settings).level).toBe('confirm');
  });

  it.each([
    ['find . -exec rm {} +'],
    ['find . -execdir sh x +'],
    ['find . -ok rm {} +'],
    ['find . -okdir rm {} +'],
    ['find . -delete'],
    ['find . -fprint out'],
    ['git -c core.pager=sh log'],
    ['git --config-env=core.pager=X log'],
    ['git log --output=x'],
    ['git diff --ext-diff'],
    ['git grep -O foo'],
    ['git rebase -x make'],
    ['git config core.fsmonitor x'],
    ['git bisect run make'],
    ['git submodule foreach ls'],
    ['git frobnicate'], // may be an alias from the repo's config
    ['git --git-dir=evil status'],
    ['git -C sub status'],
    ['sed 1e file'],
    ['sed s/a/b/e file'],
    ['sed s/a/b/w out file'],
    ['sed -i s/a/b/ file'],
    ['sed -ni s/a/b/ file'],
    ['awk BEGIN{system(1)}'],
    ['rg --pre ./x foo'],
    ['tar --to-command=sh -xf a.tar'],
    ['cat /etc/passwd'],
    ['cat ../../secret'],
    ['ls --dir=/etc'],
    // Script options in every spelling GNU sed accepts.
    ['sed --expression=1e file'],
    ['sed --expr=1e file'],
    ['sed --expression 1e file'],
    ['sed -e1e file'],
    ['sed -ne1e file'],
    ['sed -n -e 1p -e 1e file'],
    ['sed -l 5 1e file'], // 5 is -l's value, so 1e is the script
    ['sed -- 1e file'],
    ['sed --in=.bak s/a/b/ file'],
    // Abbreviated long options and bundled short ones with attached values.
    ['git fetch --upload=./evil.sh origin'],
    ['git log --outp=x'],
    ['git clone -u ./evil.sh . copy'],
    ['git clone -qu./evil.sh . copy'],
    ['rg --pr ./x foo'],
    ['tar xIf ./evil.sh a.tar'], // old-style bundle: I is --use-compress-program
    ['tar cFf ./evil.sh a.tar .'],
    ['git help -w log'], // opens the browser or man viewer the repository configures
    ['git log --help'],
    // Walks that follow links in the tree (a cloned repo can carry one to ~/.ssh).
    ['rg -L secret'],
    ['rg --follow secret'],
    ['find -L . -name id_rsa'],
    ['find . -follow -name id_rsa'],
    ['tar -chf out.tar .'],
    ['tar chf out.tar .'],
  ])('program-running options and outside paths are asked about: %s', (command) => {
    expect(level(command)).toBe('confirm');
  });
});

describe('bash levels', () => {
  it('bash=deny denies everything, bash=allow allows all but the denylist', () => {
    expect(decideBash('ls', { ...settings, bash: 'deny' }).level).toBe('deny');
    expect(decideBash('make -j8', { ...settings, bash: 'allow' }).level).toBe('allow');
  });

  it('reports the matching allowlist entry', () => {
    expect(decideBash('git status', settings)).toMatchObject({ level: 'allow', allowlisted: 'git status' });
  });

  it('the user floor is stricter than a project allowlist', () => {
    const project = makePolicy({ bashAllowlist: ['make'] });
    const floor = makePolicy({ bashDenylist: ['make'] });
    expect(decideBashWithFloor('make', project, floor).level).toBe('deny');
    expect(decideBashWithFloor('make', project, makePolicy()).level).toBe('confirm');
    expect(decideBashWithFloor('make', project).level).toBe('allow');
  });
});
