import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/providers/create-client.js';
import { chooseProxy, isLoopback, matchesNoProxy, type ProxyInput } from '../../src/providers/proxy.js';
import { startConnectProxy, type TestProxy } from '../support/connect-proxy.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { collect, collectFailure, fakeClient, fakePreset, lastStop, simpleRequest } from '../support/provider-helpers.js';
import { startSocks5Server } from '../support/socks5-server.js';

const base: ProxyInput = {
  target: 'https://api.deepseek.com/anthropic',
  presetProxy: undefined,
  globalProxy: undefined,
  noProxy: [],
  env: {},
};
const SYSTEM_ENV = { HTTPS_PROXY: 'http://env-https:3128', HTTP_PROXY: 'http://env-http:3128', ALL_PROXY: 'socks5h://env-all:1080' };

describe('chooseProxy', () => {
  it('is off by default, and proxy variables are ignored unless proxy = "system"', () => {
    expect(chooseProxy(base).kind).toBe('direct');
    expect(chooseProxy({ ...base, env: SYSTEM_ENV }).kind).toBe('direct');
    expect(chooseProxy({ ...base, env: SYSTEM_ENV, globalProxy: 'system' })).toMatchObject({ kind: 'proxy', url: 'http://env-https:3128' });
    expect(chooseProxy({ ...base, target: 'http://llm.lan:8000', env: SYSTEM_ENV, globalProxy: 'system' })).toMatchObject({ url: 'http://env-http:3128' });
    expect(chooseProxy({ ...base, env: { all_proxy: 'socks5://a:1' }, presetProxy: 'system' })).toMatchObject({ url: 'socks5://a:1' });
    expect(chooseProxy({ ...base, env: { ...SYSTEM_ENV, NO_PROXY: 'x.org, .deepseek.com' }, globalProxy: 'system' }).kind).toBe('direct');
  });

  it('resolves --proxy, then the preset, then the global setting; preset false means direct', () => {
    expect(chooseProxy({ ...base, globalProxy: 'http://global:1' })).toMatchObject({ url: 'http://global:1' });
    expect(chooseProxy({ ...base, globalProxy: 'http://global:1', presetProxy: 'socks5://preset:2' })).toMatchObject({ url: 'socks5://preset:2' });
    expect(chooseProxy({ ...base, globalProxy: 'http://global:1', presetProxy: false }).kind).toBe('direct');
    expect(chooseProxy({ ...base, cliProxy: 'http://cli:3', presetProxy: false, globalProxy: 'http://global:1' })).toMatchObject({
      url: 'http://cli:3',
      source: '--proxy',
    });
  });

  it('always reaches loopback directly, even under --proxy', () => {
    for (const target of ['http://localhost:11434/v1', 'http://127.0.0.1:8080', 'http://127.8.9.10', 'http://[::1]:1234/v1']) {
      expect(chooseProxy({ ...base, target, cliProxy: 'socks5h://p:1080', globalProxy: 'http://g:1' }).kind).toBe('direct');
    }
    // URL parsing rewrites these forms; they are still loopback.
    for (const target of ['http://[::ffff:127.0.0.1]:8080', 'http://[0:0:0:0:0:0:0:1]/', 'http://localhost.:11434', 'http://127.1/']) {
      expect(chooseProxy({ ...base, target, cliProxy: 'http://cli:3' }).kind).toBe('direct');
    }
    expect(chooseProxy({ ...base, target: 'http://[::ffff:8.8.8.8]/', cliProxy: 'http://cli:3' }).kind).toBe('proxy');
    expect(isLoopback('::2')).toBe(false);
    expect(isLoopback('128.0.0.1')).toBe(false);
    expect(isLoopback('localhost.evil.com')).toBe(false);
  });

  it('no_proxy matches an exact host, a domain suffix or a CIDR — for configured proxies, not --proxy', () => {
    const noProxy = ['192.168.0.0/16', '.internal', 'ollama.box', 'fd00::/8'];
    const via = (target: string) => chooseProxy({ ...base, target, globalProxy: 'http://g:1', noProxy }).kind;
    expect(via('http://192.168.4.20:11434')).toBe('direct');
    expect(via('http://192.169.0.1')).toBe('proxy');
    expect(via('https://llm.corp.internal/v1')).toBe('direct');
    expect(via('https://internal.example.com')).toBe('proxy');
    expect(via('http://ollama.box:11434')).toBe('direct');
    expect(via('http://my-ollama.box:11434')).toBe('proxy');
    expect(via('http://[fd12:3456::1]:8000')).toBe('direct');
    expect(chooseProxy({ ...base, target: 'http://ollama.box', cliProxy: 'http://cli:3', noProxy }).kind).toBe('proxy');
    expect(matchesNoProxy('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(matchesNoProxy('11.1.2.3', ['10.0.0.0/8'])).toBe(false);
    expect(via('http://[::ffff:192.168.1.5]:11434')).toBe('direct');
    expect(via('https://llm.corp.internal./v1')).toBe('direct');
    expect(via('http://ollama.box.:11434')).toBe('direct');
  });

  it('logs the proxy it uses without its password', () => {
    const lines: string[] = [];
    const preset = fakePreset({ baseUrl: 'https://api.example.com' }, 'openai', { proxy: 'http://me:s3cret-pass@proxy.corp:3128' });
    createModelClient(preset, { noProxy: [], globalProxy: undefined, maxRetries: 0, idleTimeoutMs: 1000, log: (l) => lines.push(l) });
    expect(lines).toEqual(['Using proxy http://me:***@proxy.corp:3128/ (preset proxy) for https://api.example.com']);
  });

  it('rejects proxy URLs it cannot use, naming the setting', () => {
    expect(() => chooseProxy({ ...base, globalProxy: 'ftp://p:21' })).toThrow(/global proxy.*ftp:/);
    expect(() => chooseProxy({ ...base, cliProxy: 'not a url' })).toThrow(/--proxy/);
  });
});

describe('requests through real proxies on loopback', () => {
  let fake: FakeProvider | undefined;
  let proxy: TestProxy | undefined;
  afterEach(async () => {
    await fake?.close();
    await proxy?.close();
    fake = proxy = undefined;
  });

  /** A host name only the proxy can resolve: reaching the fake proves the proxy carried the request. */
  const viaName = (f: FakeProvider) => ({ baseUrl: f.baseUrl.replace('127.0.0.1', 'fake-provider.invalid') });

  it('an http:// proxy tunnels anthropic requests with CONNECT', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'via connect' }] });
    proxy = await startConnectProxy();
    const preset = fakePreset(viaName(fake), 'anthropic', { proxy: proxy.url });
    const stop = lastStop(await collect(fakeClient(preset).stream(simpleRequest())));
    expect(stop.message.content).toEqual([{ type: 'text', text: 'via connect' }]);
    expect(proxy.targets).toEqual([`fake-provider.invalid:${new URL(fake.baseUrl).port}`]);
  });

  it.each(['socks5h', 'socks5'])('a %s:// proxy carries openai requests and resolves the name itself', async (scheme) => {
    fake = await startFakeProvider({ format: 'openai', replies: [{ text: 'via socks' }] });
    proxy = await startSocks5Server();
    const preset = fakePreset(viaName(fake), 'openai');
    const client = fakeClient(preset, { globalProxy: proxy.url.replace('socks5h:', `${scheme}:`) });
    const stop = lastStop(await collect(client.stream(simpleRequest())));
    expect(stop.message.content).toEqual([{ type: 'text', text: 'via socks' }]);
    expect(proxy.targets).toEqual([`fake-provider.invalid:${new URL(fake.baseUrl).port}`]);
  });

  it('a preset with proxy = false goes direct despite a global proxy', async () => {
    fake = await startFakeProvider({ format: 'openai', replies: [{ text: 'never' }] });
    proxy = await startSocks5Server();
    const preset = fakePreset(viaName(fake), 'openai', { proxy: false });
    const { error } = await collectFailure(fakeClient(preset, { globalProxy: proxy.url, maxRetries: 0 }).stream(simpleRequest()));
    // Direct, the made-up name cannot resolve; the proxy never saw a request.
    expect(error.kind).toBe('network');
    expect(proxy.targets).toEqual([]);
  });

  it('a loopback provider stays direct under --proxy, even when that proxy is unreachable', async () => {
    fake = await startFakeProvider({ format: 'anthropic', replies: [{ text: 'local' }] });
    proxy = await startConnectProxy();
    const stop = lastStop(await collect(fakeClient(fakePreset(fake, 'anthropic'), { proxy: proxy.url }).stream(simpleRequest())));
    expect(stop.message.content).toEqual([{ type: 'text', text: 'local' }]);
    expect(proxy.targets).toEqual([]);
  });
});
