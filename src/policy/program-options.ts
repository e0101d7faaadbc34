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
    // `git <cmd> --help` starts the man viewer or browser the repository's config names.
    '--help',
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

/**
 * Options that make a walk follow symlinks, so a link in the tree (a cloned repo can carry one to
 * ~/.ssh) is read through unseen. Links named on the command line are checked by the bash tool.
 */
const FOLLOWING_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  grep: ['-R', '--dereference-recursive'],
  egrep: ['-R', '--dereference-recursive'],
  fgrep: ['-R', '--dereference-recursive'],
  rg: ['-L', '--follow'],
  find: ['-L', '-follow'],
  tar: ['-h', '--dereference'],
  du: ['-L', '--dereference'],
  tree: ['-l'],
  wc: ['--files0-from'],
};

/** git subcommands that may be run under an entry of plain `git`; anything else may be an alias. */
const GIT_SAFE_SUBCOMMANDS = new Set([
  'status', 'log', 'diff', 'show', 'branch', 'tag', 'blame', 'shortlog', 'describe', 'rev-parse',
  'ls-files', 'ls-tree', 'cat-file', 'grep', 'reflog', 'remote', 'stash', 'add', 'commit', 'restore',
  'switch', 'checkout', 'merge', 'rebase', 'reset', 'rm', 'mv', 'fetch', 'pull', 'push', 'clone',
  'init', 'cherry-pick', 'revert', 'worktree', 'version', 'whatchanged', 'count-objects',
  'merge-base', 'name-rev', 'rev-list', 'show-ref', 'for-each-ref', 'cherry', 'range-diff', 'notes',
]);

/** git subcommands that run other programs by design. */
const GIT_RUNNING_SUBCOMMANDS = new Set(['config', 'difftool', 'mergetool', 'filter-branch', 'instaweb', 'daemon', 'bisect', 'submodule', 'send-email', 'credential', 'help', 'archimport', 'cvsimport', 'svn', 'p4']);

function optionWord(arg: string): string {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
}

/** GNU getopt and git both accept any unambiguous prefix of a long option (`--upload=x`). */
function abbreviates(word: string, option: string): boolean {
  return word.length > 3 && option.startsWith('--') && option.startsWith(word);
}

/**
 * Short options bundle (`-ie`) and take attached values (`-qu./x`): every letter up to the first
 * non-letter may be an option, so a listed one anywhere in that run counts.
 */
export function hitsOption(arg: string, listed: readonly string[]): boolean {
  const word = optionWord(arg);
  if (listed.includes(word)) return true;
  if (arg.startsWith('--')) return listed.some((opt) => abbreviates(word, opt));
  const letters = /^-([A-Za-z]+)/.exec(arg)?.[1] ?? '';
  return [...letters].some((c) => listed.includes(`-${c}`));
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

/** tar's old-style first word (`xIf`) bundles options without a dash. */
function tarBundle(args: readonly string[]): string | undefined {
  const first = args[0];
  return first !== undefined && /^[A-Za-z]+$/.test(first) ? `-${first}` : undefined;
}

/**
 * The sed scripts a command line runs: every -e/--expression value (attached, separate or through
 * an abbreviated long option), else the first operand, skipping the value of -l.
 */
function sedScripts(args: readonly string[]): string[] {
  const scripts: string[] = [];
  let operand: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      operand ??= args[i + 1];
      break;
    }
    if (arg.startsWith('--')) {
      const word = optionWord(arg);
      const valued = word === '--expression' || abbreviates(word, '--expression');
      if (valued || word === '--line-length' || abbreviates(word, '--line-length')) {
        const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
        if (valued) scripts.push(value ?? '');
      }
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      const e = /^-[A-Za-z]*?e(.*)$/.exec(arg);
      if (e !== null) scripts.push(e[1] !== '' ? (e[1] as string) : (args[++i] ?? ''));
      else if (/^-[A-Za-z]*l$/.test(arg)) i++;
      continue;
    }
    operand ??= arg;
  }
  return scripts.length > 0 ? scripts : [operand ?? ''];
}

/** Returns why the arguments after `from` are not plain, or undefined when they are. */
export function unsafeArgument(words: readonly string[], from: number): string | undefined {
  const program = words[0] as string;
  const listed = RUNNING_OPTIONS[program] ?? [];
  const following = FOLLOWING_OPTIONS[program] ?? [];
  const args = words.slice(1);
  for (let i = from - 1; i < args.length; i++) {
    const arg = args[i] as string;
    if (hitsOption(arg, listed)) return `${program} ${arg} can run a program or write a file`;
    if (program !== 'find' ? hitsOption(arg, following) : following.includes(arg)) return `${program} ${arg} follows links, maybe out of the project`;
    if (escapesProject(arg)) return `${arg} reaches outside the project`;
    if ((program === 'awk' || program === 'gawk' || program === 'mawk' || program === 'nawk') && /system|getline|print\s*>|\|/.test(arg)) {
      return `${program} program can run commands`;
    }
  }
  if (program === 'sed') {
    for (const s of sedScripts(args)) {
      if (!sedScriptIsPlain(s)) return 'sed script may run commands or write files';
    }
  }
  if (program === 'tar') {
    const bundle = tarBundle(args);
    if (bundle !== undefined && hitsOption(bundle, [...listed, ...following])) return `tar ${args[0] as string} can run a program or follow links`;
  }
  if (program === 'git') {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub !== undefined && GIT_RUNNING_SUBCOMMANDS.has(sub)) return `git ${sub} can run programs`;
    // clone's -u is --upload-pack (elsewhere -u is harmless: push/add/branch).
    if (sub === 'clone' && args.some((a) => hitsOption(a, ['-u']))) return 'git clone -u runs a program';
    if (from === 1 && sub !== undefined && !GIT_SAFE_SUBCOMMANDS.has(sub)) return `git ${sub} may be an alias`;
  }
  return undefined;
}
