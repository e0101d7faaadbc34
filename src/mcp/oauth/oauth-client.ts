/**
 * OAuth 2.1 for one HTTP server, as the transport's HttpAuth: the stored token while it lasts,
 * a refresh when it expires, and on a challenge the whole authorization-code flow with PKCE
 * (discovery, dynamic client registration, a loopback redirect, the browser or a printed URL).
 */
import { createHash, randomBytes } from 'node:crypto';
import { McpFault, isRecord } from '../protocol.js';
import type { AuthChallenge, HttpAuth } from '../http-transport.js';
import {
  canonicalResource,
  discoverAuthServer,
  discoverResource,
  fallbackAuthServer,
  parseChallenge,
  resourceMatches,
  type AuthServerMetadata,
} from './discovery.js';
import { openLoopback } from './loopback.js';
import type { Credentials, StoredClient, StoredTokens, TokenStore } from './token-store.js';
import { absent } from '../../diagnostics/ignore-error.js';

export interface OAuthOptions {
  readonly serverUrl: string;
  readonly store: TokenStore;
  /** Shows the user the URL and (usually) opens the browser on it. */
  readonly openUrl: (url: string) => Promise<void> | void;
  /** Credentials registered by hand, for servers without dynamic registration. */
  readonly preRegistered?: { clientId: string; clientSecret?: string };
  /** A client-metadata document URL (CIMD), used as client_id where the server supports it. */
  readonly clientMetadataUrl?: string;
  readonly fetch?: typeof fetch;
  readonly browserTimeoutMs?: number;
}

const base64url = (buf: Buffer): string => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: base64url(createHash('sha256').update(verifier).digest()) };
}

/** Which client authentication the token endpoint gets: what registration said, else the best offered. */
function authMethodFor(client: { clientSecret?: string; authMethod?: string }, as: AuthServerMetadata): string {
  if (client.authMethod) return client.authMethod;
  if (!client.clientSecret) return 'none';
  const offered = as.tokenEndpointAuthMethods ?? ['client_secret_basic'];
  if (offered.includes('client_secret_basic')) return 'client_secret_basic';
  if (offered.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}

export function createOAuth(opts: OAuthOptions): HttpAuth & { readonly resource: string } {
  const doFetch = opts.fetch ?? fetch;
  const resource = canonicalResource(opts.serverUrl);
  let creds: Credentials | undefined;
  let loaded = false;
  let refreshedFor: string | undefined;

  const tokenRequest = async (endpoint: string, client: StoredClient, body: Record<string, string>): Promise<StoredTokens> => {
    const form = new URLSearchParams({ ...body, resource });
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
    if (client.authMethod === 'client_secret_basic' && client.clientSecret !== undefined) {
      const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
      headers['Authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      form.set('client_id', client.clientId);
      if (client.authMethod === 'client_secret_post' && client.clientSecret !== undefined) form.set('client_secret', client.clientSecret);
    }
    const res = await doFetch(endpoint, { method: 'POST', headers, body: form.toString(), signal: AbortSignal.timeout(30_000) });
    const json: unknown = await res.json().catch(absent);
    if (!res.ok || !isRecord(json) || typeof json['access_token'] !== 'string') {
      const why = isRecord(json) && typeof json['error'] === 'string' ? json['error'] : `HTTP ${res.status}`;
      throw new McpFault('auth', `the token endpoint refused (${why})`);
    }
    const expiresIn = typeof json['expires_in'] === 'number' ? json['expires_in'] : undefined;
    return {
      accessToken: json['access_token'],
      ...(typeof json['refresh_token'] === 'string' ? { refreshToken: json['refresh_token'] } : {}),
      ...(expiresIn !== undefined ? { expiresAt: Date.now() + expiresIn * 1000 } : {}),
      ...(typeof json['scope'] === 'string' ? { scope: json['scope'] } : {}),
      tokenEndpoint: endpoint,
    };
  };

  const refresh = async (): Promise<boolean> => {
    const t = creds?.tokens;
    if (!creds?.client || !t?.refreshToken) return false;
    try {
      const tokens = await tokenRequest(t.tokenEndpoint, creds.client, { grant_type: 'refresh_token', refresh_token: t.refreshToken });
      creds = { ...creds, tokens: { ...tokens, refreshToken: tokens.refreshToken ?? t.refreshToken } };
      await opts.store.save(creds);
      return true;
    } catch {
      return false;
    }
  };

  const register = async (as: AuthServerMetadata, redirectUri: string): Promise<StoredClient> => {
    if (opts.preRegistered) return { ...opts.preRegistered, authMethod: authMethodFor(opts.preRegistered, as), redirectUri };
    if (as.clientIdMetadataDocumentSupported && opts.clientMetadataUrl) return { clientId: opts.clientMetadataUrl, authMethod: 'none', redirectUri };
    if (!as.registrationEndpoint) throw new McpFault('auth', `${as.issuer} offers no dynamic client registration; register lindwyrm there and set oauth_client_id`);
    const res = await doFetch(as.registrationEndpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        client_name: 'lindwyrm',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
      signal: AbortSignal.timeout(30_000),
    });
    const json: unknown = await res.json().catch(absent);
    if (!res.ok || !isRecord(json) || typeof json['client_id'] !== 'string') throw new McpFault('auth', `client registration at ${as.issuer} failed (HTTP ${res.status})`);
    const secret = typeof json['client_secret'] === 'string' ? json['client_secret'] : undefined;
    const method = typeof json['token_endpoint_auth_method'] === 'string' ? json['token_endpoint_auth_method'] : undefined;
    const client = { clientId: json['client_id'], ...(secret !== undefined ? { clientSecret: secret } : {}) };
    return { ...client, authMethod: authMethodFor({ ...client, ...(method ? { authMethod: method } : {}) }, as), redirectUri };
  };

  const authorize = async (challenge: AuthChallenge): Promise<boolean> => {
    const www = parseChallenge(challenge.wwwAuthenticate);
    const prm = await discoverResource(doFetch, opts.serverUrl, www.resourceMetadata);
    if (prm && !resourceMatches(prm.resource, opts.serverUrl)) {
      throw new McpFault('auth', `the server's metadata names another resource (${prm.resource}); not authorizing`);
    }
    const issuer = prm?.authorizationServers[0];
    const as = (issuer ? await discoverAuthServer(doFetch, issuer) : await discoverAuthServer(doFetch, new URL(opts.serverUrl).origin)) ?? fallbackAuthServer(issuer ?? opts.serverUrl);
    if (as.codeChallengeMethods && !as.codeChallengeMethods.includes('S256')) throw new McpFault('auth', `${as.issuer} does not offer PKCE with S256`);
    let scope = www.scope ?? prm?.scopesSupported?.join(' ');
    // A refresh token needs offline_access on servers that list it.
    if (scope && as.scopesSupported?.includes('offline_access') && !scope.split(' ').includes('offline_access') && (as.grantTypesSupported ?? ['refresh_token']).includes('refresh_token')) {
      scope = `${scope} offline_access`;
    }
    const stored = await opts.store.load(resource, as.issuer);
    const preferredPort = stored?.client?.redirectUri ? Number(new URL(stored.client.redirectUri).port) : 0;
    const loopback = await openLoopback(preferredPort);
    try {
      const client = stored?.client && stored.client.redirectUri === loopback.redirectUri && !opts.preRegistered ? stored.client : await register(as, loopback.redirectUri);
      creds = { issuer: as.issuer, resource, client };
      const { verifier, challenge: codeChallenge } = pkcePair();
      const state = base64url(randomBytes(16));
      const url = new URL(as.authorizationEndpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', loopback.redirectUri);
      url.searchParams.set('code_challenge', codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('state', state);
      url.searchParams.set('resource', resource);
      if (scope) url.searchParams.set('scope', scope);
      const code = loopback.waitForCode(state, opts.browserTimeoutMs ?? 300_000);
      await opts.openUrl(url.toString());
      const tokens = await tokenRequest(as.tokenEndpoint, client, {
        grant_type: 'authorization_code',
        code: await code,
        redirect_uri: loopback.redirectUri,
        code_verifier: verifier,
      });
      creds = { ...creds, tokens };
      await opts.store.save(creds);
      return true;
    } finally {
      loopback.close();
    }
  };

  const ensureLoaded = async (): Promise<void> => {
    if (loaded) return;
    loaded = true;
    creds = await opts.store.load(resource);
  };

  return {
    resource,
    async authorization() {
      await ensureLoaded();
      const t = creds?.tokens;
      if (!t) return undefined;
      if (t.expiresAt !== undefined && t.expiresAt - 30_000 < Date.now() && refreshedFor !== t.accessToken) {
        refreshedFor = t.accessToken;
        await refresh();
      }
      return creds?.tokens ? `Bearer ${creds.tokens.accessToken}` : undefined;
    },
    async challenge(challenge) {
      await ensureLoaded();
      const www = parseChallenge(challenge.wwwAuthenticate);
      if (challenge.status === 403 && www.error !== 'insufficient_scope') return false;
      // An expired or revoked token: one refresh before asking the user again.
      if (challenge.status === 401 && creds?.tokens?.refreshToken && refreshedFor !== creds.tokens.accessToken) {
        refreshedFor = creds.tokens.accessToken;
        if (await refresh()) return true;
      }
      return authorize(challenge);
    },
  };
}
