/**
 * bash_in_sandbox = "allow": a command that would be asked about runs without asking when it runs
 * in the sandbox, where the worst it can do is change the project. Denials stay denials (the
 * denylist, bash = "deny"), and a command that names an always-ask file — git hooks or config,
 * .envrc, shell start-up files — is still asked about: those make other programs run code.
 */
import path from 'node:path';
import { expandHome, realPathLoose } from '../config/resolve-path.js';
import type { SandboxSettings } from '../config/types.js';
import { isExecSensitive } from '../policy/exec-sensitive.js';
import type { Decision } from '../policy/types.js';

/** Path-like words of a command line: split at blanks, quotes, redirections and operators. */
function words(command: string): string[] {
  return command
    .split(/[\s;|&<>()`'"=,]+/)
    .filter((w) => w !== '' && !w.startsWith('-') && !w.includes('$'))
    .slice(0, 500);
}

/** The first word that names an always-ask file, or undefined. */
export function namedAlwaysAskFile(command: string, projectRoot: string, home: string): string | undefined {
  for (const word of words(command)) {
    const real = realPathLoose(path.resolve(projectRoot, expandHome(word, home)));
    if (isExecSensitive(real, projectRoot)) return word;
  }
  return undefined;
}

export function decideInSandbox<D extends Decision>(
  decision: D,
  opts: { command: string; settings: SandboxSettings; sandboxed: boolean; projectRoot: string; home: string },
): D | Decision {
  if (!opts.sandboxed || opts.settings.bashInSandbox !== 'allow' || decision.level !== 'confirm' || decision.alwaysAsk) return decision;
  const file = namedAlwaysAskFile(opts.command, opts.projectRoot, opts.home);
  if (file !== undefined) {
    return { ...decision, reason: `${decision.reason}; bash_in_sandbox = "allow", but the command names ${file}, a file that makes other programs run code` };
  }
  return { level: 'allow', reason: `bash_in_sandbox = "allow" (runs in the sandbox; ${decision.reason} otherwise)` };
}
