/** /rewind in the slash-command registry: the command of rewind-command.ts over the session in use. */
import type { SlashCommand, SlashReply } from '../slash/types.js';
import { conversationOf } from './conversation-snapshot.js';
import { REWIND_USAGE, runRewindCommand } from './rewind-command.js';
import type { Rewind } from './rewind-service.js';

export function rewindSlashCommand(rewind: () => Rewind): SlashCommand {
  return {
    name: '/rewind',
    args: '[N [code|conversation|both]]',
    help: 'go back to before a prompt: its file changes, the conversation, or both (a preview first; Esc Esc opens it)',
    idle: 'always',
    async run({ args, session, busy }): Promise<SlashReply> {
      const result = await runRewindCommand(args, {
        rewind: rewind(),
        busy,
        conversation: () => conversationOf(session.runtime),
        restoreConversation: (state) => session.restoreConversation(state),
      });
      if (result.error) return { kind: 'error', text: result.text };
      if (result.view) return { kind: 'rewind', text: result.text, view: result.view };
      // A rewind that ran (its words and, for a conversation, the prompt for the input).
      if (args.length >= 3) return { kind: 'rewound', text: result.text, ...(result.input !== undefined ? { input: result.input } : {}) };
      return { kind: 'text', text: result.text };
    },
  };
}

export { REWIND_USAGE };
