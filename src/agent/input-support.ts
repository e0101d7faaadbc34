/** What the full-screen input needs from the engine's side: the project's prompt history and the @ paths. */
import type { Config } from '../config/types.js';
import { appPaths } from '../config/paths.js';
import { collectSessionSecrets } from '../secrets/session-secrets.js';
import { openPromptHistory, type PromptHistory } from '../sessions/prompt-history.js';
import { listMentionPaths } from './mention-paths.js';

export async function openInputSupport(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  apiKey: string | undefined,
): Promise<{ history: PromptHistory; mentionPaths: () => Promise<readonly string[]> }> {
  const secrets = await collectSessionSecrets({ config, env, ...(apiKey ? { apiKey } : {}) });
  const history = await openPromptHistory({ dataDir: appPaths(env).dataDir, projectRoot: config.projectRoot, secrets: secrets.values });
  return { history, mentionPaths: () => listMentionPaths(config, env) };
}
