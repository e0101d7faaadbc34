/**
 * The sandbox's network, black-box through the built CLI: a loopback HTTP server on this machine
 * is unreachable with the network off, reachable once sandbox_network lists it (through
 * lindwyrm's proxy), every other host is refused with a note that names it and the setting,
 * and each host contacted or refused is in the audit log. Loopback inside stays the sandbox's.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sandboxSkipReason } from '../support/sandbox-host.js';
import { useBuild } from './support/cli.js';
import { sandboxSessions } from './support/sandbox-session.js';

vi.setConfig({ testTimeout: 60_000 });

const cli = useBuild();
const sessions = sandboxSessions(cli);

function curlMissing(): string | undefined {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    console.warn('skipping the sandbox network tests: curl is not installed');
    return 'curl is not installed';
  }
}
const skip = (await sandboxSkipReason()) ?? curlMissing();

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('hello from the host\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => sessions.cleanup());

describe.skipIf(skip !== undefined)('sandbox network, through lwyrm -p', () => {
  it('is off by default: the host\'s loopback server and any name are unreachable, with notes naming the setting', async () => {
    const { results } = await sessions.run([`curl -sS -m 5 http://127.0.0.1:${port}/`, 'curl -sS -m 5 https://example.com/']);
    expect(results[0]).not.toContain('hello from the host');
    expect(results[0]).toContain('sandbox_network');
    expect(results[1]).toMatch(/example\.com could not be reached: sandboxed commands have no network \(sandbox_network is empty\)/);
  });

  it('opens only the listed hosts through the proxy, and the audit log has each one', async () => {
    const { results, env } = await sessions.run(
      [`curl -sS -m 5 http://127.0.0.1:${port}/`, 'curl -sS -m 5 https://example.com/', `curl -sS -m 5 http://localhost:${port}/`],
      { configToml: `sandbox_network = ["127.0.0.1"]\naudit_log = "~/audit.jsonl"\n` },
    );
    expect(results[0]).toContain('hello from the host');
    expect(results[1]).toContain('403');
    expect(results[1]).toMatch(/connection to example\.com was refused: not in sandbox_network \(it lists 127\.0\.0\.1\)/);
    // "localhost" is another name, not listed: it stays the sandbox's own.
    expect(results[2]).not.toContain('hello from the host');
    const audit = (await readFile(join(env.root, 'audit.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    const network = audit.filter((a) => a['event'] === 'network').map((a) => `${a['decision']} ${a['target']}`);
    expect(network).toContain(`allow 127.0.0.1:${port}`);
    expect(network).toContain('deny example.com:443');
  });

  it('keeps loopback the sandbox\'s own: a server started inside is reached directly, proxy or not', async () => {
    const inner =
      'node -e "const h=require(\'http\');const s=h.createServer((q,r)=>r.end(\'from inside\')).listen(47613,\'127.0.0.1\',()=>h.get(\'http://127.0.0.1:47613/\',(r)=>{r.pipe(process.stdout);r.on(\'end\',()=>s.close())}))"; echo; ' +
      '(node -e "require(\'http\').createServer((q,r)=>r.end(\'curl inside\')).listen(47614,\'127.0.0.1\')" & sleep 1; curl -sS -m 5 http://127.0.0.1:47614/; kill %1)';
    const { results } = await sessions.run([inner], { configToml: 'sandbox_network = ["example.org"]\n' });
    expect(results[0]).toContain('from inside');
    expect(results[0]).toContain('curl inside');
  });
});
