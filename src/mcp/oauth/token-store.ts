/**
 * OAuth credentials on disk: one 0600 JSON file per server under the data dir, each entry bound
 * to the issuer and the resource it was issued for. A token is only ever handed back for the same
 * pair, so a server that moves to another authorization server starts afresh.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../protocol.js';
import { ignoreError } from '../../diagnostics/ignore-error.js';

export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly authMethod: string;
  readonly redirectUri?: string;
}

export interface StoredTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Epoch ms; absent when the server gave no lifetime. */
  readonly expiresAt?: number;
  readonly scope?: string;
  readonly tokenEndpoint: string;
}

export interface Credentials {
  readonly issuer: string;
  readonly resource: string;
  readonly client?: StoredClient;
  readonly tokens?: StoredTokens;
}

export interface TokenStore {
  /** The credentials for this resource; with an issuer, only when they were issued by it. */
  load(resource: string, issuer?: string): Promise<Credentials | undefined>;
  save(credentials: Credentials): Promise<void>;
  forget(resource: string): Promise<void>;
}

export function createTokenStore(dir: string): TokenStore {
  const fileFor = (resource: string): string => join(dir, `${createHash('sha256').update(resource).digest('hex').slice(0, 32)}.json`);
  return {
    async load(resource, issuer) {
      let raw: string;
      try {
        raw = await readFile(fileFor(resource), 'utf8');
      } catch {
        return undefined;
      }
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return undefined;
      }
      if (!isRecord(value) || value['resource'] !== resource || typeof value['issuer'] !== 'string') return undefined;
      if (issuer !== undefined && value['issuer'] !== issuer) return undefined;
      return value as unknown as Credentials;
    },
    async save(credentials) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = fileFor(credentials.resource);
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
      // The mode is set again: an umask or a file left by an older run must not widen it.
      await chmod(temp, 0o600);
      await rename(temp, file);
    },
    async forget(resource) {
      const file = fileFor(resource);
      await writeFile(file, '{}\n', { mode: 0o600 }).catch(ignoreError(`forget the tokens in ${file}`));
    },
  };
}
