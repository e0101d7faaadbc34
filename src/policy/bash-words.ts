/** Word-level views of a shell command, for the bash policy. No evaluation, only splitting. */

/** Quotes and backslashes removed, as the shell would before running: c''url and c\url are curl. */
export function dequote(text: string): string {
  return text.replace(/["'\\]/g, '');
}

/** `//`, `/.`, `/./..`: other names of the root folder, so a `rm -rf /` entry sees them all. */
const ROOT_SPELLING = /^\/[/.]*$/;

/**
 * Every word of the command, dequoted, split on whitespace and on shell operators, with a path
 * prefix and trailing slashes dropped (/usr/bin/curl is curl, ~/ is ~) and the root folder
 * spelled `/`. Over-splitting is fine: this feeds the denylist.
 */
export function denylistWords(command: string): string[] {
  // Brace expansion turns `{rm,-rf,/}` into three words; commas elsewhere are left alone.
  const separators = command.includes('{') ? /[\s;&|<>()`$={}!,]+/ : /[\s;&|<>()`$={}!]+/;
  // A backslash-newline is a line continuation: the shell removes both, so `r\<newline>m` is rm.
  return dequote(command.replace(/\\\n/g, ''))
    .split(separators)
    .filter((w) => w !== '')
    .flatMap(wordNames);
}

/**
 * `dir/*` is every entry of the folder, which for rm -rf is the folder itself (`rm -rf /*` is
 * `rm -rf /`), and still a `*`: it reads as two words, the folder's and the star's, so it meets
 * both `rm -rf /` and `rm -rf *`. No regex: words are untrusted and this runs on each of them.
 */
function wordNames(word: string): string[] {
  let end = word.length;
  while (end > 0 && word[end - 1] === '*') end--;
  if (end === word.length || end === 0 || word[end - 1] !== '/') return [lastName(word)];
  return [lastName(word.slice(0, end)), word.slice(end)];
}

/** `/`, `//` → `/`, `~/` → `~`, `build/` → `build`, `/usr/bin/curl` → `curl`. */
function lastName(word: string): string {
  if (ROOT_SPELLING.test(word)) return '/';
  // Not /\/+$/: V8 retries it from every slash of a long run that is not at the end (quadratic).
  let end = word.length;
  while (end > 0 && word[end - 1] === '/') end--;
  const trimmed = word.slice(0, end);
  return trimmed.includes('/') ? trimmed.slice(trimmed.lastIndexOf('/') + 1) : trimmed;
}

/** Characters that make a command more than "a program plus plain arguments". */
export const SHELL_META = /[;&|<>$`()\n\r{}*?[\]~"'\\#!]/;

/** Other control characters (NUL, ESC, …) and Unicode line separators also force a prompt. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Words that run another command or change how one runs: an allowlist entry starting with one of
 * these never matches, whatever follows.
 */
export const WRAPPERS = new Set([
  'env', 'command', 'exec', 'eval', 'source', '.', 'xargs', 'sudo', 'doas', 'su', 'runuser', 'pkexec',
  'timeout', 'nice', 'renice', 'nohup', 'time', 'watch', 'stdbuf', 'ionice', 'chrt', 'taskset',
  'setsid', 'unshare', 'nsenter', 'chroot', 'flock', 'script', 'parallel', 'busybox', 'builtin',
  'trap', 'alias', 'set', 'export', 'declare', 'typeset', 'local', 'readonly', 'let', 'shopt',
  'enable', 'hash', 'cd', 'pushd', 'popd', 'ulimit', 'umask', 'fc', 'history', 'coproc', 'wait',
  'if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac',
  'function', 'select', '[[', '[', 'test',
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'csh', 'tcsh', 'mksh', 'ash',
]);
