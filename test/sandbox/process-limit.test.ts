/** Where the process limit is set: inside the sandbox for a user, a cgroup (or nothing) for root. */
import { describe, expect, it } from 'vitest';
import { chooseProcessLimit, SANDBOX_PROCESS_LIMIT } from '../../src/sandbox/process-limit.js';

describe('chooseProcessLimit', () => {
  it('a normal user: RLIMIT_NPROC set inside the sandbox, where only its own processes count', async () => {
    const limit = await chooseProcessLimit({ uid: 1000, platform: 'linux' });
    expect(limit.method).toBe('rlimit');
    const prepared = await limit.prepare();
    // Set before bwrap, it would cap all of the user's processes (the namespace inherits it as a ceiling).
    expect(prepared.prelude).toBe('');
    expect(prepared.innerPrelude).toContain(`ulimit -u ${SANDBOX_PROCESS_LIMIT}`);
  });

  it('root: not RLIMIT_NPROC, which root ignores, but a pids cgroup the command joins — or "none" with the reason', async () => {
    const limit = await chooseProcessLimit({ uid: 0, platform: 'linux' });
    expect(['cgroup', 'none']).toContain(limit.method);
    expect(limit.note).toMatch(/root/);
    const prepared = await limit.prepare();
    expect(prepared.innerPrelude).toBe('');
    if (limit.method === 'cgroup') expect(prepared.prelude).toMatch(/^echo \$\$ > '.*cgroup\.procs'/);
    await prepared.cleanup();
  });
});
