/**
 * bash through the client's terminal/* methods, when it advertises them: the command runs in the
 * editor's terminal, which the user can watch, and its output comes back to the model as from a
 * local run. The policy has already approved the command. The editor's environment may hold API
 * keys lindwyrm strips from its own commands, so the command runs under `env -u NAME …`.
 */
import type { CommandRunner } from '../tools/types.js';
import type { PermissionPeer } from './permission.js';
import { ignoreError, orderOnly } from '../diagnostics/ignore-error.js';

const POLL_MS = 200;
const OUTPUT_LIMIT = 1024 * 1024;

type Exit = { exitCode?: number | null; signal?: string | null };

export function createClientTerminal(opts: {
  peer: PermissionPeer;
  sessionId: () => string;
  /** Variables to unset for the command (provider keys and the like). */
  secretNames: () => readonly string[];
  onCreated: (terminalId: string) => void;
}): CommandRunner {
  return {
    async run(run) {
      const sessionId = opts.sessionId();
      const unset = [...new Set([...opts.secretNames(), 'FORCE_COLOR', 'CLICOLOR_FORCE'])].flatMap((name) => ['-u', name]);
      const created = (await opts.peer.request('terminal/create', {
        sessionId,
        command: 'env',
        args: [...unset, 'NO_COLOR=1', run.shell, '-c', run.command],
        cwd: run.cwd,
        outputByteLimit: OUTPUT_LIMIT,
      })) as { terminalId?: unknown } | null;
      const terminalId = created?.terminalId;
      if (typeof terminalId !== 'string') throw new Error('the editor created no terminal');
      opts.onCreated(terminalId);
      const call = (method: string) => opts.peer.request(method, { sessionId, terminalId });
      let seen = 0;
      const pull = async (): Promise<void> => {
        const out = (await call('terminal/output')) as { output?: unknown } | null;
        const text = typeof out?.output === 'string' ? out.output : '';
        // Truncated from the front by the client: start over from what it still has.
        if (text.length < seen) seen = 0;
        if (text.length > seen) run.onData(text.slice(seen));
        seen = text.length;
      };
      let timedOut = false;
      let interrupted = false;
      let timer: NodeJS.Timeout | undefined;
      let poller: NodeJS.Timeout | undefined;
      const stopped = new Promise<'timeout' | 'abort'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), run.timeoutMs);
        if (run.signal.aborted) resolve('abort');
        run.signal.addEventListener('abort', () => resolve('abort'), { once: true });
      });
      const poll = (): void => {
        // A poll that fails is followed by the next one; the final pull below reports what is left.
        poller = setTimeout(() => void pull().catch(orderOnly).finally(() => poller !== undefined && poll()), POLL_MS);
      };
      poll();
      try {
        const first = await Promise.race([call('terminal/wait_for_exit') as Promise<Exit>, stopped]);
        let exit: Exit = {};
        if (first === 'timeout' || first === 'abort') {
          timedOut = first === 'timeout';
          interrupted = first === 'abort';
          await call('terminal/kill').catch(ignoreError('kill the editor terminal'));
          const final = ((await call('terminal/output').catch(ignoreError('read the editor terminal'))) ?? null) as { exitStatus?: Exit | null } | null;
          exit = final?.exitStatus ?? {};
        } else exit = first;
        clearTimeout(poller);
        poller = undefined;
        await pull().catch(ignoreError('read the editor terminal'));
        return { exitCode: exit.exitCode ?? null, exitSignal: exit.signal ?? null, timedOut, interrupted };
      } finally {
        clearTimeout(timer);
        clearTimeout(poller);
        poller = undefined;
        await call('terminal/release').catch(ignoreError('release the editor terminal'));
      }
    },
  };
}
