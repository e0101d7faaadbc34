/**
 * Secret-shaped files: names that usually hold keys, tokens or passwords. Reading one is asked
 * about by default (`read = "confirm"`), inside the project too, so a prompt injection cannot
 * send `.env` to the provider behind a harmless-looking grep. A path rule that names the file, or
 * a folder inside the project that holds it, decides instead (README, Permissions).
 */
import path from 'node:path';
import { foldCase } from './case-fold.js';

/** Whole names (compared case-folded). */
const SECRET_NAMES = new Set([
  '.npmrc', // _authToken
  '.yarnrc.yml', // npmAuthToken
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.boto',
  '.s3cfg',
  '.dockercfg',
  '.htpasswd',
  'application_default_credentials.json', // gcloud
  'credentials.db',
  'access_tokens.db',
  'accesstokens.json', // azure
  'msal_token_cache.json',
  'service-account.json',
  'client_secret.json',
  'credentials.tfrc.json',
]);

/** A file of this name inside a folder of that name (the cloud tools' credential files). */
const SECRET_PAIRS: readonly (readonly [string, string])[] = [
  ['.aws', 'credentials'],
  ['.docker', 'config.json'],
  ['.kube', 'config'],
  ['.cargo', 'credentials'],
  ['.cargo', 'credentials.toml'],
  ['.gem', 'credentials'],
  ['gh', 'hosts.yml'], // the GitHub CLI's token
  ['.gnupg', 'secring.gpg'],
];

const SECRET_EXTENSIONS = new Set(['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.ppk', '.kdbx']);

/** ssh's key types, for id_* files with a suffix (id_ed25519.old); `.pub` is the public half. */
const SSH_KEY = /^id_(rsa|dsa|ecdsa|ed25519|xmss)(_sk)?(\..+)?$/;

/** The default list as the README and /policy word it. */
export const SECRET_FILE_PATTERNS: readonly string[] = [
  '.env*',
  ...[...SECRET_EXTENSIONS].map((e) => `*${e}`),
  'id_* (ssh keys, not .pub)',
  ...SECRET_NAMES,
  ...SECRET_PAIRS.map(([dir, name]) => `${dir}/${name}`),
];

/** The pattern `realPath` matches, or undefined when it is not secret-shaped. */
export function secretFilePattern(realPath: string): string | undefined {
  const parts = realPath.split(path.sep).filter((p) => p !== '').map(foldCase);
  const name = parts.at(-1);
  if (name === undefined) return undefined;
  if (name.startsWith('.env')) return '.env*';
  if (SECRET_NAMES.has(name)) return name;
  const ext = path.extname(name);
  if (SECRET_EXTENSIONS.has(ext)) return `*${ext}`;
  if (name.startsWith('id_') && !name.endsWith('.pub') && (SSH_KEY.test(name) || !name.includes('.'))) return 'id_* (an ssh key)';
  const dir = parts.at(-2);
  for (const [d, n] of SECRET_PAIRS) if (dir === d && name === n) return `${d}/${n}`;
  return undefined;
}
