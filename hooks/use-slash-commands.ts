import type { SessionState } from '../src/agent/state.js';
import { BUILTIN_SLASH_INFO } from '../src/slash/builtin-info.js';
import type { SlashCommandInfo } from '../src/slash/types.js';
import { useEngineState } from './use-engine-state.js';

const selectCommands = (s: SessionState) => s.commands;

/**
 * The slash commands the engine has registered (built-in ones, and any registered at runtime),
 * for help, completion and hints. An engine that does not say (still starting) has the built-ins.
 */
export function useSlashCommands(): readonly SlashCommandInfo[] {
  return useEngineState(selectCommands) ?? BUILTIN_SLASH_INFO;
}
