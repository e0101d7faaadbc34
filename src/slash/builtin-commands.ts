/**
 * The built-in commands: each one's data (builtin-info.ts) with its handler. A new built-in
 * command is its line in builtin-info.ts and its handler here; a command from elsewhere (a custom
 * command file, a protocol server's prompt) registers itself whole with SlashRegistry.register.
 */
import { BUILTIN_SLASH_INFO } from './builtin-info.js';
import { exportCommand } from './export-command.js';
import { permCommand, policyCommand } from './policy-commands.js';
import { clearCommand, compactCommand, contextCommand, helpCommand, initCommand, sessionsCommand } from './session-commands.js';
import { markdownCommand, modelCommand, presetsCommand, proxyCommand, thinkCommand, thinkingCommand } from './setting-commands.js';
import type { SlashCommand } from './types.js';

const HANDLERS: Readonly<Record<string, SlashCommand['run']>> = {
  '/model': modelCommand,
  '/presets': presetsCommand,
  '/thinking': thinkingCommand,
  '/think': thinkCommand,
  '/markdown': markdownCommand,
  '/perm': permCommand,
  '/policy': policyCommand,
  '/context': contextCommand,
  '/compact': compactCommand,
  '/sessions': sessionsCommand,
  '/init': initCommand,
  '/proxy': proxyCommand,
  '/clear': clearCommand,
  '/export': exportCommand,
  '/help': helpCommand,
  '/exit': () => ({ kind: 'exit' }),
};

export function builtinSlashCommands(): SlashCommand[] {
  return BUILTIN_SLASH_INFO.map((info) => {
    const run = HANDLERS[info.name];
    if (!run) throw new Error(`No handler for the built-in command ${info.name}`);
    return { ...info, run };
  });
}
