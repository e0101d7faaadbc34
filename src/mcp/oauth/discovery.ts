/**
 * OAuth discovery for an MCP server: the WWW-Authenticate challenge, protected-resource metadata
 * (RFC 9728) and authorization-server metadata (RFC 8414 / OpenID), with the well-known fallbacks
 * the 2025 revisions list, and the 2025-03-26 behaviour (no resource metadata: the server's own
 * origin is the authorization server, with /authorize, /token, /register as defaults).
 */
import { isRecord } from '../protocol.js';
import { ignoreError } from '../../diagnostics/ignore-error.js';

export interface Challenge {
  readonly resourceMetadata?: string;
  readonly scope?: string;
  readonly error?: string;
}

export interface ResourceMetadata {
  readonly resource?: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
}

export interface AuthServerMetadata {
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly registrationEndpoint?: string;
  readonly scopesSupported?: readonly string[];
  readonly grantTypesSupported?: readonly string[];
  readonly tokenEndpointAuthMethods?: readonly string[];
  readonly codeChallengeMethods?: readonly string[];
  readonly clientIdMetadataDocumentSupported?: boolean;
}

/** `Bearer resource_metadata="…", scope="a b", error="insufficient_scope"` → its parameters. */
export function parseChallenge(header: string | undefined): Challenge {
  if (!header) return {};
  const params: Record<string, string> = {};
  const re = /([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
  for (let m = re.exec(header); m; m = re.exec(header)) {
    params[(m[1] ?? '').toLowerCase()] = (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
  }
  return {
    ...(params['resource_metadata'] ? { resourceMetadata: params['resource_metadata'] } : {}),
    ...(params['scope'] ? { scope: params['scope'] } : {}),
    ...(params['error'] ? { error: params['error'] } : {}),
  };
}

/** The resource indicator for a server URL (RFC 8707): no fragment, no trailing slash on a bare origin. */
export function canonicalResource(url: string): string {
  const u = new URL(url);
  u.hash = '';
  const text = u.toString();
  return u.pathname === '/' && !u.search ? text.replace(/\/$/, '') : text;
}

type Fetch = typeof fetch;

async function getJson(doFetch: Fetch, url: string): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await doFetch(url, { headers: { Accept: 'application/json', 'MCP-Protocol-Version': '2025-11-25' }, signal: AbortSignal.timeout(15_000) });
    if (!res.ok) {
      await res.body?.cancel().catch(ignoreError('cancel a response body nobody reads'));
      return undefined;
    }
    const body: unknown = await res.json();
    return isRecord(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

export async function discoverResource(doFetch: Fetch, serverUrl: string, fromChallenge?: string): Promise<ResourceMetadata | undefined> {
  const u = new URL(serverUrl);
  const path = u.pathname.replace(/\/$/, '');
  const candidates = [
    ...(fromChallenge ? [new URL(fromChallenge, serverUrl).toString()] : []),
    ...(path && path !== '/' ? [`${u.origin}/.well-known/oauth-protected-resource${path}`] : []),
    `${u.origin}/.well-known/oauth-protected-resource`,
  ];
  for (const url of candidates) {
    const body = await getJson(doFetch, url);
    const servers = strings(body?.['authorization_servers']);
    if (body && servers && servers.length > 0) {
      const scopes = strings(body['scopes_supported']);
      return {
        ...(typeof body['resource'] === 'string' ? { resource: body['resource'] } : {}),
        authorizationServers: servers,
        ...(scopes ? { scopesSupported: scopes } : {}),
      };
    }
  }
  return undefined;
}

/** RFC 8414 path insertion first, then OpenID's two spellings. */
function metadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, '');
  if (!path) return [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
  return [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${u.origin}/.well-known/openid-configuration${path}`,
    `${u.origin}${path}/.well-known/openid-configuration`,
  ];
}

export async function discoverAuthServer(doFetch: Fetch, issuer: string): Promise<AuthServerMetadata | undefined> {
  for (const url of metadataUrls(issuer)) {
    const body = await getJson(doFetch, url);
    if (!body || typeof body['authorization_endpoint'] !== 'string' || typeof body['token_endpoint'] !== 'string') continue;
    const list = (key: string): { [k: string]: readonly string[] } => {
      const v = strings(body[key]);
      return v ? { [key]: v } : {};
    };
    const l = { ...list('scopes_supported'), ...list('grant_types_supported'), ...list('token_endpoint_auth_methods_supported'), ...list('code_challenge_methods_supported') };
    return {
      issuer: typeof body['issuer'] === 'string' ? body['issuer'] : issuer,
      authorizationEndpoint: body['authorization_endpoint'],
      tokenEndpoint: body['token_endpoint'],
      ...(typeof body['registration_endpoint'] === 'string' ? { registrationEndpoint: body['registration_endpoint'] } : {}),
      ...(l['scopes_supported'] ? { scopesSupported: l['scopes_supported'] } : {}),
      ...(l['grant_types_supported'] ? { grantTypesSupported: l['grant_types_supported'] } : {}),
      ...(l['token_endpoint_auth_methods_supported'] ? { tokenEndpointAuthMethods: l['token_endpoint_auth_methods_supported'] } : {}),
      ...(l['code_challenge_methods_supported'] ? { codeChallengeMethods: l['code_challenge_methods_supported'] } : {}),
      ...(body['client_id_metadata_document_supported'] === true ? { clientIdMetadataDocumentSupported: true } : {}),
    };
  }
  return undefined;
}

/** A server from before metadata discovery: its origin serves the OAuth endpoints. */
export function fallbackAuthServer(serverUrl: string): AuthServerMetadata {
  const origin = new URL(serverUrl).origin;
  return {
    issuer: origin,
    authorizationEndpoint: `${origin}/authorize`,
    tokenEndpoint: `${origin}/token`,
    registrationEndpoint: `${origin}/register`,
  };
}

/**
 * The metadata's resource must name this server (or a path above it on the same origin): a
 * token issued for another resource must never be requested for, or sent to, this one.
 */
export function resourceMatches(metadataResource: string | undefined, serverUrl: string): boolean {
  if (metadataResource === undefined) return true;
  try {
    const want = new URL(canonicalResource(serverUrl));
    const got = new URL(canonicalResource(metadataResource));
    if (want.origin !== got.origin) return false;
    const base = got.pathname.endsWith('/') ? got.pathname : `${got.pathname}/`;
    return want.pathname === got.pathname || got.pathname === '/' || `${want.pathname}/`.startsWith(base);
  } catch {
    return false;
  }
}
