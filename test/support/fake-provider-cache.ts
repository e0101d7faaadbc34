/**
 * The fake provider's model of Anthropic prompt caching (platform.claude.com
 * build-with-claude/prompt-caching), so tests can assert on what a server would bill:
 *
 * - The prefix is rendered tools → system → messages, one block at a time; a block's identity is
 *   its JSON without `cache_control` (moving a marker does not change the content).
 * - A request's breakpoint (a block with cache_control) looks for a cached prefix at its own
 *   position and up to 19 blocks before it (the 20-block lookback); an entry exists only where an
 *   earlier request had a breakpoint, and only until its TTL (5 minutes, or 1 hour with
 *   ttl: "1h") runs out — every hit refreshes it.
 * - The longest prefix found is read from cache; from there to the last breakpoint is written
 *   (when that prefix reaches the minimum cacheable length), split by the TTL of the breakpoint
 *   that ends each stretch; the rest is fresh input.
 * - More than 4 breakpoints, a breakpoint on a thinking block, an unknown ttl, or a 1-hour
 *   breakpoint after a 5-minute one is a 400, as the API answers.
 *
 * Token counts are estimated (4 characters of the block's JSON per token): what matters to the
 * tests is which part of the prompt is read, written or fresh, and that is exact.
 */
import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;

export interface PromptCacheOptions {
  /** Minimum cacheable prefix in tokens (Claude Sonnet 4.x: 1,024). */
  readonly minTokens?: number;
  /** The server's clock in ms (tests move it forward to let entries expire). */
  readonly now?: () => number;
}

export interface CacheOutcome {
  readonly totalTokens: number;
  readonly readTokens: number;
  readonly writeTokens: number;
  readonly write5mTokens: number;
  readonly write1hTokens: number;
  readonly inputTokens: number;
  /** Blocks in the request, and the number of leading blocks read from cache. */
  readonly blocks: number;
  readonly readBlocks: number;
  /** Block positions that carried a breakpoint. */
  readonly breakpoints: readonly number[];
}

export class CacheRejection extends Error {}

interface Block {
  readonly identity: string;
  readonly tokens: number;
  readonly ttl?: '5m' | '1h';
}

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
const LOOKBACK = 20;
const MAX_BREAKPOINTS = 4;

export class PromptCacheModel {
  private readonly entries = new Map<string, { expiresAt: number; ttl: '5m' | '1h' }>();
  readonly log: CacheOutcome[] = [];
  private readonly minTokens: number;
  private readonly now: () => number;

  constructor(opts: PromptCacheOptions = {}) {
    this.minTokens = opts.minTokens ?? 1024;
    this.now = opts.now ?? Date.now;
  }

  /** Accounts one request; throws CacheRejection for a request the API would refuse. */
  account(body: Json): CacheOutcome {
    const blocks = flatten(body);
    const model = String(body['model'] ?? '');
    const hashes: string[] = [];
    const upTo: number[] = [];
    let h = createHash('sha256').update(model).digest('hex');
    let sum = 0;
    for (const b of blocks) {
      h = createHash('sha256').update(h).update(b.identity).digest('hex');
      hashes.push(h);
      sum += b.tokens;
      upTo.push(sum);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.ttl ? [i] : []));
    const now = this.now();
    let readEnd = -1;
    for (const bp of breakpoints) {
      for (let j = bp; j >= 0 && j > bp - LOOKBACK; j--) {
        const entry = this.entries.get(hashes[j] ?? '');
        if (!entry || entry.expiresAt <= now) continue;
        entry.expiresAt = now + TTL_MS[entry.ttl];
        readEnd = Math.max(readEnd, j);
        break;
      }
    }
    const written: number[] = [];
    for (const bp of breakpoints) {
      const key = hashes[bp] ?? '';
      const existing = this.entries.get(key);
      if (existing && existing.expiresAt > now) continue;
      if ((upTo[bp] ?? 0) < this.minTokens) continue; // below the minimum nothing is cached, silently
      const ttl = blocks[bp]?.ttl ?? '5m';
      this.entries.set(key, { expiresAt: now + TTL_MS[ttl], ttl });
      if (bp > readEnd) written.push(bp);
    }
    const readTokens = readEnd >= 0 ? (upTo[readEnd] ?? 0) : 0;
    let write5mTokens = 0;
    let write1hTokens = 0;
    let from = readTokens;
    for (const bp of written) {
      const tokens = (upTo[bp] ?? 0) - from;
      if (blocks[bp]?.ttl === '1h') write1hTokens += tokens;
      else write5mTokens += tokens;
      from = upTo[bp] ?? from;
    }
    const writeTokens = write5mTokens + write1hTokens;
    const outcome: CacheOutcome = {
      totalTokens: sum,
      readTokens,
      writeTokens,
      write5mTokens,
      write1hTokens,
      inputTokens: sum - readTokens - writeTokens,
      blocks: blocks.length,
      readBlocks: readEnd + 1,
      breakpoints,
    };
    this.log.push(outcome);
    return outcome;
  }
}

/** The request's blocks in render order, validated the way the API validates breakpoints. */
function flatten(body: Json): Block[] {
  const out: Block[] = [];
  let lastTtl: '5m' | '1h' | undefined;
  let count = 0;
  const add = (role: string, first: boolean, block: Json): void => {
    const { cache_control: control, ...rest } = block;
    let ttl: '5m' | '1h' | undefined;
    if (control !== undefined) {
      const c = control as Json;
      if (c['type'] !== 'ephemeral') throw new CacheRejection(`cache_control.type: Input should be 'ephemeral'`);
      const t = c['ttl'] ?? '5m';
      if (t !== '5m' && t !== '1h') throw new CacheRejection(`cache_control.ttl: Input should be '5m' or '1h'`);
      if (rest['type'] === 'thinking' || rest['type'] === 'redacted_thinking') {
        throw new CacheRejection('cache_control cannot be set on thinking blocks');
      }
      if (t === '1h' && lastTtl === '5m') {
        throw new CacheRejection('a ttl="1h" cache_control block must not come after a ttl="5m" cache_control block');
      }
      ttl = t;
      lastTtl = t;
      count++;
    }
    const identity = `${role}|${first ? 'start' : ''}|${stableJson(rest)}`;
    out.push({ identity, tokens: Math.max(1, Math.ceil(stableJson(rest).length / 4)), ...(ttl ? { ttl } : {}) });
  };
  for (const tool of (body['tools'] as Json[] | undefined) ?? []) add('tool', false, tool);
  const system = body['system'];
  if (typeof system === 'string') add('system', false, { type: 'text', text: system });
  else if (Array.isArray(system)) for (const b of system as Json[]) add('system', false, b);
  for (const m of (body['messages'] as Json[] | undefined) ?? []) {
    const content = typeof m['content'] === 'string' ? [{ type: 'text', text: m['content'] }] : ((m['content'] as Json[] | undefined) ?? []);
    content.forEach((b, i) => add(String(m['role']), i === 0, b));
  }
  if (count > MAX_BREAKPOINTS) throw new CacheRejection(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.`);
  return out;
}

/** JSON with object keys sorted, so the same content always has the same identity. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value as Json)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Json)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
