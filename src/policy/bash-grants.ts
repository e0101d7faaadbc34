/**
 * Bash grants: what an [a]lways answer to a command allows from then on, and whether a command is
 * covered by the grants (and saved rules, and allowlist entries) in force. Pure.
 *
 * A grant is a prefix of a simple command — its program and, for programs that have them, its
 * subcommand (`npm test`, `git status`, `cargo build`, `pytest`) — or, for programs where any
 * prefix is too wide (rm, curl, chmod, docker …), the exact command. A command is covered only when
 * every one of its segments (parse-segments: split at && || ; | & newline) is covered on its own,
 * so a grant never reaches across a command boundary. A segment with a wrapper (env, sudo, xargs,
 * sh -c, timeout, nice …), an inline script (python -c, node -e, a heredoc), a redirection, a
 * substitution, a variable or a glob is never covered by a grant.
 *
 * Arguments after the prefix are covered when they are plain: not an option that runs a program,
 * writes a file or follows links (program-options.ts, as for the allowlist), not a path outside
 * the project, and not an option that forces, deletes or skips checks (`git push --force`,
 * `git reset --hard`, `npm install --force`). The denylist is judged before any of this and
 * always wins.
 */
import { parseCommand, type CommandSegment } from './bash-segments.js';
import { WRAPPERS } from './bash-words.js';
import { hitsOption, unsafeArgument } from './program-options.js';
import { matchAllowlist } from './bash-policy.js';

export interface BashGrant {
  /** The words a segment must start with (prefix) or consist of (exact). */
  readonly words: readonly string[];
  readonly match: 'prefix' | 'exact';
}

/** Where a grant in force comes from, for explanations. */
export type GrantSource = 'grant' | 'saved rule' | 'allowlist';

export interface SourcedGrant extends BashGrant {
  readonly source: GrantSource;
}

/** More words than a program's own: they run whatever they are given. */
const MORE_WRAPPERS = new Set([
  '!', 'strace', 'ltrace', 'valgrind', 'gdb', 'lldb', 'perf', 'unbuffer', 'caffeinate', 'firejail', 'bwrap', 'proot',
  'fakeroot', 'chronic', 'torsocks', 'proxychains', 'proxychains4', 'rlwrap', 'entr', 'nodemon', 'retry', 'systemd-run',
  'osascript',
]);

/** Programs a prefix would make too wide: [a]lways grants the exact command. */
const EXACT_ONLY = new Set([
  'rm', 'rmdir', 'unlink', 'dd', 'shred', 'truncate', 'mkfs', 'fdisk', 'parted', 'wipefs', 'chmod', 'chown', 'chgrp',
  'chattr', 'setfacl', 'mv', 'cp', 'ln', 'install', 'tee', 'kill', 'pkill', 'killall', 'curl', 'wget', 'ssh', 'scp',
  'sftp', 'rsync', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp', 'docker', 'podman', 'kubectl', 'crontab',
  'systemctl', 'launchctl', 'reboot', 'shutdown', 'mount', 'umount', 'git-filter-repo', 'psql', 'mysql', 'sqlite3',
  'redis-cli', 'mongosh', 'aws', 'gcloud', 'az',
]);

/** Programs whose first argument is a subcommand that belongs in the grant. */
const SUBCOMMANDS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'deno', 'cargo', 'go', 'rustup', 'pip', 'pip3', 'uv', 'poetry', 'pipenv', 'pdm',
  'hatch', 'conda', 'mamba', 'dotnet', 'gradle', 'gradlew', 'mvn', 'mvnw', 'make', 'gmake', 'just', 'task', 'terraform',
  'tofu', 'gh', 'glab', 'brew', 'apt', 'apt-get', 'dnf', 'yum', 'pacman', 'helm', 'npx', 'pnpx', 'bunx', 'uvx', 'pipx',
  'nx', 'turbo', 'lerna', 'ng', 'rails', 'rake', 'bundle', 'mix', 'stack', 'cabal', 'dune', 'opam', 'zig', 'swift',
  'flutter', 'dart', 'composer', 'bazel', 'bazelisk', 'buck2', 'ninja', 'vitest', 'playwright', 'tox', 'nox',
  'pre-commit', 'hugo', 'jj', 'hg', 'svn', 'sapling', 'sl',
]);

/** `npm run build`, `uv run pytest`, `gh pr list`: one more word belongs in the grant. */
const THIRD_WORD: Readonly<Record<string, readonly string[]>> = {
  npm: ['run', 'run-script', 'exec', 'x'],
  pnpm: ['run', 'exec', 'dlx'],
  yarn: ['run', 'exec', 'dlx'],
  bun: ['run', 'x'],
  deno: ['run', 'task'],
  uv: ['run', 'tool'],
  poetry: ['run'],
  pipenv: ['run'],
  pdm: ['run'],
  hatch: ['run'],
  bundle: ['exec'],
  pipx: ['run'],
  go: ['run'],
  gh: ['*'],
  glab: ['*'],
  dotnet: ['run', 'tool'],
  cargo: ['run'],
};

/** Interpreters: the grant is the script (or -m module); their inline-script options are never covered. */
const INLINE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  pypy: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  nodejs: ['-e', '--eval', '-p', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  'ts-node': ['-e', '--eval', '-p', '--print'],
  tsx: ['-e', '--eval', '-p', '--print'],
  ruby: ['-e'],
  perl: ['-e', '-E'],
  php: ['-r'],
  lua: ['-e'],
  luajit: ['-e'],
  julia: ['-e', '--eval', '-E', '--print'],
  Rscript: ['-e'],
  R: ['-e'],
  elixir: ['-e'],
  groovy: ['-e'],
  pwsh: ['-c', '-command', '-encodedcommand', '-ec'],
  powershell: ['-c', '-command', '-encodedcommand', '-ec'],
};

/** Programs whose program text is their first operand: always an inline script. */
const SCRIPT_OPERAND = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox', 'jshell']);

/** Options that force, delete or skip checks: a prefix grant does not cover them. */
const FORCING_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: ['-f', '--force', '--force-with-lease', '--force-if-includes', '--hard', '-D', '--delete', '--mirror', '--prune', '--no-verify', '-X', '-x'],
  npm: ['-f', '--force', '--unsafe-perm'],
  pnpm: ['-f', '--force'],
  yarn: ['--force'],
  cargo: ['--force'],
  pip: ['--force-reinstall', '--break-system-packages'],
  pip3: ['--force-reinstall', '--break-system-packages'],
  terraform: ['-auto-approve', '-destroy'],
  tofu: ['-auto-approve', '-destroy'],
  helm: ['--force'],
  brew: ['--force', '-f'],
};

function baseName(program: string): string {
  const name = program.slice(program.lastIndexOf('/') + 1);
  // python3.12 → python, pip3.11 → pip3
  if (/^python[\d.]*$/.test(name)) return 'python';
  if (/^pypy[\d.]*$/.test(name)) return 'pypy';
  if (/^pip[\d.]+$/.test(name)) return 'pip3';
  return name;
}

function isOption(word: string): boolean {
  return word.length > 1 && word.startsWith('-');
}

/** Whether a word hits one of `listed`, the way program-options reads them (bundles, abbreviations). */
function hitsListed(program: string, word: string, listed: readonly string[]): boolean {
  if (program === 'terraform' || program === 'tofu') return listed.includes(word.split('=')[0] as string);
  return hitsOption(word, listed);
}

/** Why no grant may cover this segment at all, or undefined. */
export function ungrantable(segment: CommandSegment): string | undefined {
  if (segment.blockers.length > 0) return segment.blockers[0];
  const program = segment.words[0];
  if (program === undefined) return 'no command';
  const name = baseName(program);
  if (WRAPPERS.has(name) || MORE_WRAPPERS.has(name)) return `${name} runs another command (a wrapper)`;
  if (SCRIPT_OPERAND.has(name)) return `${name} runs the program text it is given (an inline script)`;
  const inline = INLINE_OPTIONS[name];
  if (inline !== undefined) {
    const script = scriptIndex(segment.words, inline);
    if (script === 'inline') return `${name} runs a script written on the command line (an inline script)`;
    if (script === undefined) return `${name} reads its program from standard input`;
  }
  return undefined;
}

/** For an interpreter: the index of its script word (or of -m's module), 'inline', or undefined (stdin). */
function scriptIndex(words: readonly string[], inline: readonly string[]): number | 'inline' | undefined {
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string;
    if (inline.includes(w) || inline.includes(w.toLowerCase()) || (!w.startsWith('--') && isOption(w) && inline.some((o) => o.length === 2 && w.slice(1).includes(o[1] as string)))) {
      return 'inline';
    }
    if (w === '-m' || w === '--module') return i + 1 < words.length ? i + 1 : undefined;
    if (w === '-' || w === '--') return undefined;
    if (!isOption(w)) return i;
  }
  return undefined;
}

/** How many leading words a prefix grant of this segment holds. */
function prefixLength(words: readonly string[]): number {
  const name = baseName(words[0] as string);
  const inline = INLINE_OPTIONS[name];
  if (inline !== undefined) {
    const script = scriptIndex(words, inline);
    if (typeof script === 'number') return script + 1;
  }
  if (!SUBCOMMANDS.has(name)) return 1;
  const sub = words[1];
  if (sub === undefined || isOption(sub)) return 1;
  const third = THIRD_WORD[name];
  const next = words[2];
  if (third !== undefined && next !== undefined && !isOption(next) && (third.includes('*') || third.includes(sub))) return 3;
  return 2;
}

/** Why the arguments after `from` are not covered by a prefix grant, or undefined. */
function uncoveredArgument(words: readonly string[], from: number): string | undefined {
  const name = baseName(words[0] as string);
  const unsafe = unsafeArgument([name, ...words.slice(1)], from);
  if (unsafe !== undefined) return unsafe;
  const forcing = FORCING_OPTIONS[name] ?? [];
  for (const word of words.slice(from)) {
    if (word === '--') break;
    if (isOption(word) && hitsListed(name, word, forcing)) return `${word} forces, deletes or skips checks`;
  }
  return undefined;
}

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((w, i) => words[i] === w);
}

/** Whether a grant covers a segment; when its words match but an argument is not plain, why not. */
export function grantCovers(grant: BashGrant, segment: CommandSegment): { covers: true } | { covers: false; why?: string } {
  if (ungrantable(segment) !== undefined) return { covers: false };
  const words = segment.words;
  if (grant.match === 'exact') {
    return words.length === grant.words.length && startsWith(words, grant.words) ? { covers: true } : { covers: false };
  }
  if (!startsWith(words, grant.words)) return { covers: false };
  const why = uncoveredArgument(words, grant.words.length);
  return why === undefined ? { covers: true } : { covers: false, why };
}

/** The grant [a]lways makes for one segment (a prefix when the segment itself is covered by it). */
export function grantFor(segment: CommandSegment): BashGrant | { refused: string } {
  const why = ungrantable(segment);
  if (why !== undefined) return { refused: why };
  const words = segment.words;
  const exact: BashGrant = { words, match: 'exact' };
  if (EXACT_ONLY.has(baseName(words[0] as string))) return exact;
  const prefix: BashGrant = { words: words.slice(0, prefixLength(words)), match: 'prefix' };
  // The segment's own arguments would not be covered by its prefix (git push --force): then only
  // this exact command, or [a]lways would grant something that does not even cover what was asked.
  return grantCovers(prefix, segment).covers ? prefix : exact;
}

/** A grant as the user reads it: `npm test …` (and anything plain after it) or `rm x` (exactly). */
export function grantText(grant: BashGrant): string {
  const words = grant.words.map((w) => (w === '' || /[\s"'\\$`;&|<>(){}*?[\]~#]/.test(w) ? JSON.stringify(w) : w)).join(' ');
  return grant.match === 'prefix' ? `${words} …` : words;
}

export function sameGrant(a: BashGrant, b: BashGrant): boolean {
  return a.match === b.match && a.words.length === b.words.length && startsWith(a.words, b.words);
}

export interface SegmentVerdict {
  readonly text: string;
  /** The grant, rule or allowlist entry that covers it. */
  readonly by?: SourcedGrant | { readonly source: 'allowlist'; readonly entry: string };
  /** Why it is not covered (a blocker, a wrapper, an unplain argument), when it is not. */
  readonly why?: string;
}

export interface Coverage {
  /** Every segment is covered (and there is at least one). */
  readonly covered: boolean;
  readonly segments: readonly SegmentVerdict[];
  /** Why the command as a whole cannot be judged, when it cannot. */
  readonly problem?: string;
}

/** Judges every segment of `command` against the grants in force and the allowlist. */
export function judgeSegments(command: string, grants: readonly SourcedGrant[], allowlist: readonly string[]): Coverage {
  const parsed = parseCommand(command);
  if (parsed.problems.length > 0) return { covered: false, segments: [], problem: parsed.problems[0] };
  const segments = parsed.segments.map((segment): SegmentVerdict => {
    const blocked = ungrantable(segment);
    if (blocked !== undefined) return { text: segment.text, why: blocked };
    let near: string | undefined;
    for (const grant of grants) {
      const verdict = grantCovers(grant, segment);
      if (verdict.covers) return { text: segment.text, by: grant };
      near ??= verdict.why !== undefined ? `${grantText(grant)} (${grant.source}) does not cover it: ${verdict.why}` : undefined;
    }
    // Allowlist entries keep their own, stricter matching (the segment's words, plain).
    const entry = matchAllowlist(segment.words.join(' '), allowlist);
    if (entry !== undefined && segment.words.every((w) => !/\s/.test(w))) return { text: segment.text, by: { source: 'allowlist', entry } };
    return { text: segment.text, why: near ?? 'no grant, rule or allowlist entry covers it' };
  });
  return { covered: segments.length > 0 && segments.every((s) => s.by !== undefined), segments };
}

export interface GrantProposal {
  /** What [a]lways would add, one grant per segment not yet covered (duplicates merged). */
  readonly grants: readonly BashGrant[];
  /** Segments no grant can cover, with why: they are asked about every time. */
  readonly refused: readonly { readonly text: string; readonly why: string }[];
}

/** At most this many new grants from one answer: a long script is not turned into a dozen rules. */
export const MAX_GRANTS_PER_ANSWER = 5;

export function proposeGrants(command: string, inForce: readonly SourcedGrant[], allowlist: readonly string[]): GrantProposal {
  const parsed = parseCommand(command);
  if (parsed.problems.length > 0) return { grants: [], refused: [{ text: command, why: parsed.problems[0] as string }] };
  const judged = judgeSegments(command, inForce, allowlist);
  const grants: BashGrant[] = [];
  const refused: { text: string; why: string }[] = [];
  parsed.segments.forEach((segment, i) => {
    if (judged.segments[i]?.by !== undefined) return;
    const grant = grantFor(segment);
    if ('refused' in grant) refused.push({ text: segment.text, why: grant.refused });
    else if (!grants.some((g) => sameGrant(g, grant) || grantCovers(g, segment).covers)) grants.push(grant);
  });
  if (grants.length > MAX_GRANTS_PER_ANSWER) {
    return { grants: [], refused: [{ text: command, why: `it holds ${grants.length} different commands; [e]very allows them all` }] };
  }
  return { grants, refused };
}
