/**
 * Run in a fresh process by undici-loader.test.ts: loads undici with every internal module path
 * failing, so only the package-index fallback can work, then sends one POST directly and one
 * through a CONNECT proxy. Prints a JSON report on stdout.
 *
 *   node --import tsx undici-fallback-child.ts <url> <proxy-url>
 */
import { createRequire } from 'node:module';
import { loadUndiciParts, requestWith } from '../../../src/providers/undici-loader.js';

const [url, proxyUrl] = process.argv.slice(2);
if (!url || !proxyUrl) throw new Error('usage: undici-fallback-child.ts <url> <proxy-url>');

const realRequire = createRequire(import.meta.url);
const refused: string[] = [];
const parts = loadUndiciParts((id) => {
  if (id.startsWith('undici/lib/')) {
    refused.push(id);
    throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
  }
  return realRequire(id);
});

async function post(dispatcher: InstanceType<typeof parts.Agent> | InstanceType<typeof parts.ProxyAgent>) {
  const res = await requestWith(parts, url!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'fake-model', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    dispatcher,
  });
  const text = await res.body.text();
  await dispatcher.close();
  return { status: res.statusCode, type: String(res.headers['content-type']), ended: text.includes('message_stop') };
}

const direct = await post(new parts.Agent());
const proxied = await post(new parts.ProxyAgent({ uri: proxyUrl }));
process.stdout.write(JSON.stringify({ source: parts.source, refused, direct, proxied }));
