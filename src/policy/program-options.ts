/**
 * Options that turn an innocent-looking command into one that runs a program or writes a file.
 * An allowlist entry covers the command plus *plain* arguments only; an argument listed here is
 * never plain, so the command is asked about.
 */

/** Exact option words (or `--opt=` prefixes) that run or write, per program. */
const RUNNING_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  find: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'],
  git: [
    '-c', '--config-env', '--exec-path', '--upload-pack', '--receive-pack', '--exec', '-x', '--extcmd',
    '-O', '--open-files-in-pager', '--output', '-o', '--ext-diff', '--textconv', '--run', '--template',
    // Another repository's config would escape the overrides read from this one.
    '-C', '--git-dir', '--work-tree',
  ],
  sed: ['-i', '--in-place', '-f', '--file', '-s'],
  awk: ['-f', '--file', '-E', '--exec', '-i', '--include', '-l', '--load'],
  gawk: ['-f', '--file', '-E', '--exec', '-i', '--include', '-l', '--load'],
  mawk: ['-f'],
  nawk: ['-f'],
  rg: ['--pre', '--pre-glob', '--search-zip', '-z'],
  tar: ['--to-command', '--use-compress-program', '-I', '--checkpoint-action', '--info-script', '--new-volume-script', '-F'],
  rsync: ['-e', '--rsh', '--rsync-path'],
  sort: ['-o', '--output', '--compress-program'],
  man: ['-P', '--pager', '-H', '--html'],
  less: ['-o', '--log-file', '-O', '--LOG-FILE'],
  zip: ['-T', '-TT', '--unzip-command'],
  npx: ['-c', '--call'],
  make: ['-f', '--file', '--eval', '-E'],
};

/** git subcommands that may be run under an entry of plain `git`; anything else may be an alias. */
const GIT_SAFE_SUBCOMMANDS = new Set([
  'status', 'log', 'diff', 'show', 'branch', 'tag', 'blame', 'shortlog', 'describe', 'rev-parse',
  'ls-files', 'ls-tree', 'cat-file', 'grep', 'reflog', 'remote', 'stash', 'add', 'commit', 'restore',
  'switch', 'checkout', 'merge', 'rebase', 'reset', 'rm', 'mv', 'fetch', 'pull', 'push', 'clone',
  'init', 'cherry-pick', 'revert', 'worktree', 'version', 'help', 'whatchanged', 'count-objects',
  'merge-base', 'name-rev', 'rev-list', 'show-ref', 'for-each-ref', 'cherry', 'range-diff', 'notes',
]);

/** git subcommands that run other programs by design. */
const GIT_RUNNING_SUBCOMMANDS = new Set(['config', 'difftool', 'mergetool', 'filter-branch', 'instaweb', 'daemon', 'bisect', 'submodule', 'send-email', 'credential', 'archimport', 'cvsimport', 'svn', 'p4']);

function optionWord(arg: string): string {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
}

/** Short options bundle (`-ie`); a listed single-letter short option inside a bundle counts. */
function hitsOption(arg: string, listed: readonly string[]): boolean {
  const word = optionWord(arg);
  if (listed.includes(word)) return true;
  if (/^-[A-Za-z]{2,}$/.test(arg)) {
    return [...arg.slice(1)].some((c) => listed.includes(`-${c}`));
  }
  // `-iSUFFIX` (sed) and `-oFILE` style attached values.
  return listed.some((opt) => /^-[A-Za-z]$/.test(opt) && arg.startsWith(opt) && arg.length > 2 && !arg.startsWith('--'));
}

/** A sed script word is plain only in the simplest forms: addresses with p/d/q, or s/// with g/p/i flags. */
function sedScriptIsPlain(script: string): boolean {
  if (/^(\d+|\$)?(,(\d+|\$))?[pdq=]?$/.test(script)) return true;
  const s = /^(?:(?:\d+|\$)(?:,(?:\d+|\$))?)?s(.)/.exec(script);
  if (s === null) return false;
  const sep = s[1] as string;
  const parts = script.slice(s[0].length).split(sep);
  return parts.length === 3 && /^[gpiI0-9]*$/.test(parts[2] as string);
}

/** An argument that names something outside the project: an absolute path or a `..` step. */
function escapesProject(arg: string): boolean {
  const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
  return value.startsWith('/') || value.split('/').includes('..');
}

/** Returns why the arguments after `from` are not plain, or undefined when they are. */
export function unsafeArgument(words: readonly string[], from: number): string | undefined {
  const program = words[0] as string;
  const listed = RUNNING_OPTIONS[program] ?? [];
  const args = words.slice(1);
  for (let i = from - 1; i < args.length; i++) {
    const arg = args[i] as string;
    if (hitsOption(arg, listed)) return `${program} ${arg} can run a program or write a file`;
    if (escapesProject(arg)) return `${arg} reaches outside the project`;
    if ((program === 'awk' || program === 'gawk' || program === 'mawk' || program === 'nawk') && /system|getline|print\s*>|\|/.test(arg)) {
      return `${program} program can run commands`;
    }
  }
  if (program === 'sed') {
    const script = args.find((a, i) => !a.startsWith('-') || args[i - 1] === '-e') ?? '';
    const scripts = args.filter((_, i) => args[i - 1] === '-e' || args[i - 1] === '--expression');
    for (const s of scripts.length > 0 ? scripts : [script]) {
      if (!sedScriptIsPlain(s)) return 'sed script may run commands or write files';
    }
  }
  if (program === 'git') {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub !== undefined && GIT_RUNNING_SUBCOMMANDS.has(sub)) return `git ${sub} can run programs`;
    if (from === 1 && sub !== undefined && !GIT_SAFE_SUBCOMMANDS.has(sub)) return `git ${sub} may be an alias`;
  }
  return undefined;
}
