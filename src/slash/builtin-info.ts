/**
 * The built-in commands as data: names, arguments, help. Their handlers are in builtin-commands.ts;
 * this list stays apart, free of their imports, because the full screen shows it (help, Tab
 * completion) from its first frame, before the engine has loaded.
 */
import type { SlashCommandInfo } from './types.js';

export const THINKING_EFFORTS = ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

export const BUILTIN_SLASH_INFO: readonly SlashCommandInfo[] = [
  { name: '/model', args: '[preset]', idle: 'with-arguments', help: 'switch to another preset (format, endpoint, model); mid-conversation it first says what re-sending costs' },
  { name: '/presets', help: 'list the presets you can switch to' },
  { name: '/thinking', args: '[on|off]', choices: ['on', 'off'], help: 'turn streamed reasoning on or off' },
  { name: '/think', args: '<effort>', choices: THINKING_EFFORTS, help: 'reasoning effort: minimal, low, medium, high, xhigh or max' },
  { name: '/markdown', args: '[on|off]', choices: ['on', 'off'], help: 'render answers as markdown, or show them as plain text' },
  { name: '/perm', args: '<path> kind=level…', help: 'set a permission rule, e.g. /perm src write=allow delete=confirm' },
  { name: '/policy', args: '[why X | revoke N]', choices: ['why', 'revoke'], help: 'show the policy and this session\'s grants; why: which rule decides; revoke: take a grant back' },
  { name: '/context', help: 'show how full the context is, what is cached and what was offloaded' },
  { name: '/compact', args: '[instructions]', idle: 'always', help: 'summarize older history now (archived for recall); instructions say what to keep' },
  { name: '/sessions', args: '[resume|delete ID]', choices: ['resume', 'delete'], idle: 'with-arguments', help: 'browse saved sessions of this project: Enter resumes, d deletes' },
  { name: '/init', help: "write a starter AGENTS.md with the project's build, test and lint commands" },
  { name: '/proxy', args: '[url|off]', choices: ['off'], help: 'show or set the proxy used for model requests' },
  { name: '/clear', idle: 'always', help: 'start a new session; what was saved stays saved' },
  { name: '/export', args: '[file]', help: 'write this transcript as Markdown (default: a file per session under the data dir)' },
  { name: '/help', help: 'show this list and the keys' },
  { name: '/exit', aliases: ['/quit'], help: 'leave (also Ctrl+D on an empty line, or Ctrl+C twice)' },
];
