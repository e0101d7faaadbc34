/** What the sandbox is doing, in words: /policy's lines and the startup notes. */
import type { SandboxSettings } from '../config/types.js';
import { CREDENTIAL_PATHS } from './masked-paths.js';
import { SANDBOX_PROCESS_LIMIT } from './process-limit.js';
import type { SandboxStatus } from './types.js';

const ENGINE_NAME = { bwrap: 'bubblewrap', 'sandbox-exec': 'sandbox-exec' } as const;

export function describeSandbox(status: SandboxStatus, settings: SandboxSettings, emptied: readonly string[] = []): string[] {
  if (status.state === 'off') return ['sandbox: off (sandbox = "off"): commands run unsandboxed, with all your permissions'];
  if (status.state === 'unavailable') {
    const what = settings.mode === 'required' ? 'commands are refused (sandbox = "required")' : 'commands run unsandboxed';
    return [`sandbox: unavailable, ${what}: ${status.cause}`, `sandbox fix: ${status.fix}`];
  }
  const writable = ['the project', '/tmp (private to this session)', ...settings.writable];
  const lines = [
    `sandbox: on (${status.version}, ${ENGINE_NAME[status.engine]}; sandbox = "${settings.mode}")`,
    `sandbox writes: ${writable.join(', ')}; .git/hooks, .git/config and the other always-ask files stay read-only`,
    settings.network.length === 0
      ? 'sandbox network: none (sandbox_network is empty)'
      : `sandbox network: only ${settings.network.join(', ')}, over HTTP(S) through lindwyrm's proxy`,
    `sandbox hides: read = "deny" paths, lindwyrm's config, data and cache, key files, ${CREDENTIAL_PATHS.length} credential locations (${CREDENTIAL_PATHS.slice(0, 5).join(', ')} …)`,
    `sandbox processes: own PID namespace; at most ${SANDBOX_PROCESS_LIMIT} at once (${status.processLimit}${status.processLimitNote ? `: ${status.processLimitNote}` : ''})`,
    settings.bashInSandbox === 'allow'
      ? 'bash_in_sandbox = "allow": sandboxed commands run without asking (the denylist and always-ask files still apply)'
      : 'bash_in_sandbox = "confirm": sandboxed commands still ask first',
  ];
  if (emptied.length > 0) lines.push(`sandbox shows as empty (not absent): ${emptied.join(', ')}`);
  return lines;
}

export interface StartupNotes {
  /** The sandbox cannot start: why, and the fix. */
  readonly warning?: string;
  /** Informational: the sandbox is on; the offer of bash_in_sandbox = "allow". */
  readonly hint?: string;
}

export function sandboxStartupNotes(status: SandboxStatus, settings: SandboxSettings): StartupNotes {
  if (status.state === 'unavailable') {
    const what = settings.mode === 'required' ? 'sandbox = "required", so commands will be refused' : 'commands run without it';
    return { warning: `The command sandbox cannot start: ${status.cause}; ${what}. Fix: ${status.fix}.` };
  }
  if (status.state === 'on' && settings.bashInSandbox === 'confirm') {
    return {
      hint:
        `Commands run sandboxed (${status.version}): writes only in the project, no network${settings.network.length ? ' but sandbox_network' : ''}. ` +
        'They still ask first; set bash_in_sandbox = "allow" in your config to let sandboxed commands run without asking.',
    };
  }
  return {};
}
