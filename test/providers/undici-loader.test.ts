import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadUndiciParts, UNDICI_MODULES } from '../../src/providers/undici-loader.js';
import { startConnectProxy, type TestProxy } from '../support/connect-proxy.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

const run = promisify(execFile);
const realRequire = createRequire(import.meta.url);

let fake: FakeProvider | undefined;
let proxy: TestProxy | undefined;
afterEach(async () => {
  await fake?.close();
  await proxy?.close();
  fake = undefined;
  proxy = undefined;
});

describe('loading undici', () => {
  it("takes the pinned version's own modules, which are the very classes the package index exports", () => {
    const parts = loadUndiciParts();
    const index = realRequire('undici') as typeof import('undici');
    expect(parts.source).toBe('modules');
    expect(parts.Agent).toBe(index.Agent);
    expect(parts.ProxyAgent).toBe(index.ProxyAgent);
    expect(parts.Socks5ProxyAgent).toBe(index.Socks5ProxyAgent);
    expect(parts.request).toBe(index.Dispatcher.prototype.request);
  });

  it('falls back to the index when a module exists but no longer exports what is needed', () => {
    const parts = loadUndiciParts((id) => (id === UNDICI_MODULES.api ? {} : realRequire(id)));
    expect(parts.source).toBe('index');
    expect(typeof parts.request).toBe('function');
  });

  it('with every internal module missing, a fresh process still streams directly and through a proxy', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'direct' }, { text: 'proxied' }] });
    proxy = await startConnectProxy();
    const child = resolve('test/providers/support/undici-fallback-child.ts');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', child, `${fake.baseUrl}/v1/messages`, proxy.url], { timeout: 15_000 });
    const report = JSON.parse(stdout) as Record<string, unknown>;
    // The first internal path failed, so nothing of the fast path was used or wired.
    expect(report).toEqual({
      source: 'index',
      refused: [UNDICI_MODULES.api],
      direct: { status: 200, type: 'text/event-stream', ended: true },
      proxied: { status: 200, type: 'text/event-stream', ended: true },
    });
    expect(fake.requests).toHaveLength(2);
    expect(proxy.targets).toEqual([`127.0.0.1:${new URL(fake.baseUrl).port}`]);
  });
});
