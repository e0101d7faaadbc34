/** The commands that change how the next turns run: preset, reasoning, rendering, proxy. */
import { redactProxyUrl, validateProxyUrl } from '../providers/proxy.js';
import type { ThinkingEffort } from '../providers/types.js';
import { THINKING_EFFORTS } from './builtin-info.js';
import { switchNote, switchQuestion, targetPreset } from './switch-question.js';
import type { SlashContext, SlashReply } from './types.js';

const fail = (text: string): SlashReply => ({ kind: 'error', text });

/** on / off, or undefined for "toggle"; 'bad' for anything else. */
function onOff(arg: string | undefined): boolean | undefined | 'bad' {
  const a = arg?.toLowerCase();
  if (a === undefined) return undefined;
  return a === 'on' ? true : a === 'off' ? false : 'bad';
}

export function presetsCommand({ session }: SlashContext): SlashReply {
  const rt = session.runtime;
  const lines = rt.config.presets.map(
    (p) => `${p.name === rt.preset.name ? '*' : ' '} ${p.name.padEnd(12)} ${p.format.padEnd(9)} ${p.model || "(the server's loaded model)"}`,
  );
  return { kind: 'panel', panel: 'presets', text: lines.join('\n') };
}

export async function modelCommand({ session, rest, ask, budgetPriceWarning }: SlashContext): Promise<SlashReply> {
  const rt = session.runtime;
  if (!rest) return { kind: 'text', text: `Current preset: ${rt.preset.name} (${rt.preset.format}, ${rt.preset.model}). Usage: /model NAME` };
  // The other model's cache has never seen this conversation: say what re-sending it costs first.
  const target = targetPreset(rt, rest);
  const note = target ? switchNote(rt, target) : undefined;
  if (note && target && ask && (await ask(switchQuestion(rt.preset, target, note))) !== 'switch') {
    return { kind: 'text', text: `Kept ${rt.preset.name}. ${note}` };
  }
  const preset = await session.switchPreset(rest);
  const unpriced = budgetPriceWarning?.();
  const said = [`Switched to ${preset.name} (${preset.format}, ${preset.model}).`, note, unpriced].filter(Boolean).join(' ');
  return { kind: 'text', text: said };
}

export function thinkingCommand({ session, args }: SlashContext): SlashReply {
  const on = onOff(args[0]);
  if (on === 'bad') return fail('Usage: /thinking [on|off]');
  session.setThinking(on ?? !session.runtime.thinking);
  return { kind: 'text', text: `Thinking ${session.runtime.thinking ? 'on' : 'off'}.` };
}

export function thinkCommand({ session, args }: SlashContext): SlashReply {
  const level = args[0]?.toLowerCase() as ThinkingEffort | undefined;
  if (!level || !THINKING_EFFORTS.includes(level)) {
    return fail(`Usage: /think ${THINKING_EFFORTS.join('|')} (now ${session.runtime.thinkingEffort ?? 'the provider default'})`);
  }
  session.setThinkingEffort(level);
  return { kind: 'text', text: `Thinking effort ${level}.` };
}

export function markdownCommand({ session, args }: SlashContext): SlashReply {
  const on = onOff(args[0]);
  if (on === 'bad') return fail('Usage: /markdown [on|off]');
  session.setMarkdown(on ?? !session.runtime.markdown);
  return { kind: 'text', text: `Markdown ${session.runtime.markdown ? 'on' : 'off'}.` };
}

function shownProxy(setting: string | false | undefined): string {
  if (setting === undefined || setting === false || setting === '') return 'direct (no proxy)';
  return setting === 'system' ? 'the system proxy variables' : redactProxyUrl(setting);
}

/** /proxy: which proxy the model requests use; /proxy URL sets one for this session, /proxy off goes direct. */
export function proxyCommand({ session, cli, args }: SlashContext): SlashReply {
  const rt = session.runtime;
  const arg = args[0];
  if (arg === undefined) {
    const override = rt.proxyOverride;
    const setting = override ?? cli.proxy ?? rt.preset.proxy ?? rt.config.proxy;
    const where = override !== undefined ? '/proxy' : cli.proxy ? '--proxy' : rt.preset.proxy !== undefined ? `preset ${rt.preset.name}` : 'global setting';
    return { kind: 'text', text: `${rt.preset.name} → ${rt.preset.baseUrl}: ${shownProxy(setting)} (${where}). localhost is always reached directly.` };
  }
  if (args.length > 1) return fail('Usage: /proxy [URL|off]');
  if (arg.toLowerCase() === 'off') {
    session.setProxy(false);
    return { kind: 'text', text: 'Model requests go direct from now on (/proxy off), whatever the config says.' };
  }
  validateProxyUrl(arg, '/proxy');
  session.setProxy(arg);
  return { kind: 'text', text: `Model requests go through ${redactProxyUrl(arg)} from now on (/proxy). localhost is always reached directly.` };
}
