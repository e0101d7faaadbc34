/**
 * loadConfig: the user file, then the project's .lindwyrm.toml within the trust rules, merged over
 * the defaults into one frozen Config. A project `.env` is never read.
 */
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULTS } from './defaults.js';
import { ConfigError } from './errors.js';
import type { ConfigLayer } from './layer.js';
import { basePolicy, mcpBudget, mergeCodeMap, mergeMcpServers, mergePolicy, mergePresets, mergeSandbox, pick } from './merge.js';
import { appPaths } from './paths.js';
import { readLayer } from './read-layer.js';
import { readTomlFile } from './read-toml.js';
import { isTrustedProject, LIMITS, restrictProjectLayer } from './trust.js';
import { ownSecretPaths } from './own-secret-paths.js';
import type { Budgets, Config } from './types.js';

export const PROJECT_CONFIG_NAME = '.lindwyrm.toml';

export interface LoadConfigOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export async function loadConfig(opts: LoadConfigOptions): Promise<Config> {
  const home = opts.env['HOME'] || homedir();
  const projectRoot = await realProjectRoot(opts.cwd);
  const userFile = appPaths(opts.env).userConfigFile;
  const projectFile = join(projectRoot, PROJECT_CONFIG_NAME);
  const warnings: string[] = [];

  const userTable = await readTomlFile(userFile);
  const user = userTable ? readLayer(userTable, { file: userFile, baseDir: home, home }, warnings) : undefined;
  const projectTable = resolve(projectFile) === resolve(userFile) ? undefined : await readTomlFile(projectFile);
  const rawProject = projectTable
    ? readLayer(projectTable, { file: projectFile, baseDir: projectRoot, home, origin: 'project' }, warnings)
    : undefined;

  const trusted = isTrustedProject(projectRoot, user?.trustedProjects);
  const userPolicy = basePolicy(user);
  let project: ConfigLayer | undefined;
  let needsFloor = false;
  /** True when warnings[0] is the one warning listing what the project file tried. */
  let refusedWarning = false;
  if (rawProject) {
    const userLimits = {
      ...Object.fromEntries(LIMITS.map(([key]) => [key, user?.[key] ?? DEFAULTS[key]])),
      rewindMaxMb: user?.rewindMaxMb ?? DEFAULTS.rewindMaxMb,
      ...(user?.maxCostPerTurn !== undefined ? { maxCostPerTurn: user.maxCostPerTurn } : {}),
      ...(user?.maxCostPerSession !== undefined ? { maxCostPerSession: user.maxCostPerSession } : {}),
      ...(user?.maxTokensPerTurn !== undefined ? { maxTokensPerTurn: user.maxTokensPerTurn } : {}),
    };
    const outcome = restrictProjectLayer(rawProject, { trusted, projectRoot, userPolicy, userLimits, ...(user ? { user } : {}) });
    project = outcome.layer;
    needsFloor = outcome.needsFloor;
    if (outcome.refused.length > 0) {
      const how = trusted ? '' : ` (the project is not in trusted_projects of ${userFile})`;
      warnings.unshift(`${projectFile} may not set these, so they were ignored${how}: ${outcome.refused.join('; ')}`);
      refusedWarning = true;
    }
  }

  const presets = mergePresets([user, project]);
  const known = (spec: string | undefined) => spec !== undefined && presets.some((p) => p.name === spec.split(':')[0]);
  // "ollama:qwen3" names the preset before the colon and its model after it.
  let defaultPreset = pick('defaultPreset', user, project) ?? DEFAULTS.defaultPreset;
  if (project?.defaultPreset !== undefined && !known(project.defaultPreset) && !trusted) {
    // Usually it names a preset the same untrusted file defined and was refused: a cloned repo
    // must not stop lindwyrm from starting, so fall back to the user's choice and say so.
    const note = `default_preset "${project.defaultPreset}" (no such preset here; your own default is used)`;
    if (refusedWarning) warnings[0] = `${warnings[0] ?? ''}; ${note}`;
    else warnings.push(`${projectFile} may not set these, so they were ignored: ${note}`);
    defaultPreset = user?.defaultPreset ?? DEFAULTS.defaultPreset;
  } else if (project?.defaultPreset !== undefined && !trusted) {
    // A preset decides where the code goes and what it costs: a cloned file choosing one is news.
    const own = user?.defaultPreset ?? DEFAULTS.defaultPreset;
    if (project.defaultPreset !== own) {
      const note = `${projectFile} sets default_preset = "${project.defaultPreset}", so this session uses it instead of your own "${own}" (-m picks another)`;
      if (refusedWarning) warnings[0] = `${warnings[0] ?? ''}; it also ${note.slice(projectFile.length + 1)}`;
      else warnings.push(note);
    }
  }
  if (!known(defaultPreset)) {
    const file = project?.defaultPreset === defaultPreset ? projectFile : userFile;
    throw new ConfigError(
      `${file}: key "default_preset": expected the name of a preset (${presets.map((p) => p.name).join(', ')}), got "${defaultPreset}"`,
      { file, key: 'default_preset' },
    );
  }

  const policy = mergePolicy(userPolicy, project?.policy);
  const config: Config = {
    projectRoot,
    userConfigFile: userFile,
    trusted,
    defaultPreset,
    presets,
    policy,
    ...(needsFloor ? { policyFloor: userPolicy } : {}),
    proxy: pick('proxy', user, project) ?? false,
    noProxy: pick('noProxy', user, project) ?? [],
    auditLog: pick('auditLog', user, project),
    sessionRetentionDays: pick('sessionRetentionDays', user, project) ?? DEFAULTS.sessionRetentionDays,
    contextFile: pick('contextFile', user, project),
    commitTrailer: pick('commitTrailer', user, project),
    plugins: pick('plugins', user, project) ?? [],
    maxToolSteps: pick('maxToolSteps', user, project) ?? DEFAULTS.maxToolSteps,
    maxRetries: pick('maxRetries', user, project) ?? DEFAULTS.maxRetries,
    maxFileSizeBytes: pick('maxFileSizeBytes', user, project) ?? DEFAULTS.maxFileSizeBytes,
    maxToolOutputChars: pick('maxToolOutputChars', user, project) ?? DEFAULTS.maxToolOutputChars,
    bashTimeoutMs: pick('bashTimeoutMs', user, project) ?? DEFAULTS.bashTimeoutMs,
    streamIdleTimeoutMs: pick('streamIdleTimeoutMs', user, project) ?? DEFAULTS.streamIdleTimeoutMs,
    maxReplyBytes: pick('maxReplyBytes', user, project) ?? DEFAULTS.maxReplyBytes,
    maxCallsPerReply: pick('maxCallsPerReply', user, project) ?? DEFAULTS.maxCallsPerReply,
    rewindMaxMb: pick('rewindMaxMb', user, project) ?? DEFAULTS.rewindMaxMb,
    loopDetectionWindow: pick('loopDetectionWindow', user, project) ?? DEFAULTS.loopDetectionWindow,
    offloadEagerTokens: pick('offloadEagerTokens', user, project),
    offloadThresholdTokens: pick('offloadThresholdTokens', user, project),
    protectedTokens: pick('protectedTokens', user, project),
    budgets: budgetsOf(user, project),
    markdown: pick('markdown', user, project) ?? DEFAULTS.markdown,
    codeMap: mergeCodeMap(user, project),
    ownSecrets: ownSecretPaths(presets, opts.env),
    mcpServers: mergeMcpServers(user, project, warnings),
    ...(mcpBudget(user, project) !== undefined ? { mcpSchemaBudget: mcpBudget(user, project) } : {}),
    sandbox: mergeSandbox(user, project),
    ...(pick('toolProfile', user, project) ? { toolProfile: pick('toolProfile', user, project) } : {}),
    // The user's hooks run first, then a trusted project's (an untrusted one's were refused above).
    hooks: [...(user?.hooks ?? []), ...(project?.hooks ?? [])],
    secretEnvNames: [...new Set(presets.flatMap((p) => p.apiKeyEnv))],
    warnings,
  };
  return deepFreeze(config);
}

function budgetsOf(user: ConfigLayer | undefined, project: ConfigLayer | undefined): Budgets {
  const costPerTurn = pick('maxCostPerTurn', user, project);
  const costPerSession = pick('maxCostPerSession', user, project);
  const tokensPerTurn = pick('maxTokensPerTurn', user, project);
  return {
    ...(costPerTurn !== undefined ? { costPerTurn } : {}),
    ...(costPerSession !== undefined ? { costPerSession } : {}),
    ...(tokensPerTurn !== undefined ? { tokensPerTurn } : {}),
  };
}

async function realProjectRoot(cwd: string): Promise<string> {
  try {
    return await realpath(cwd);
  } catch {
    throw new ConfigError(`project root ${cwd} does not exist or cannot be read`);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
