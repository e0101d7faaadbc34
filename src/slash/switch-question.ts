/**
 * Before /model switches mid-conversation: the other model's cache has never seen it, so the next
 * request re-sends all of it cold. The question says what that costs, in the target's prices
 * against the current model's cache, and offers to switch or keep.
 */
import type { QuestionInput } from '../agent/questions.js';
import type { SessionRuntime } from '../agent/runtime.js';
import type { Preset } from '../config/types.js';
import { describeSwitch } from '../context/resend-cost.js';

/** The preset `/model NAME` names (NAME or NAME:MODEL), as configured; undefined when there is none. */
export function targetPreset(rt: SessionRuntime, spec: string): Preset | undefined {
  const [name, model] = [spec.split(':')[0], spec.includes(':') ? spec.slice(spec.indexOf(':') + 1) : undefined];
  const p = rt.config.presets.find((c) => c.name === name);
  return p && model ? { ...p, model } : p;
}

/** The re-charge note, or undefined when nothing is to re-send (an empty conversation). */
export function switchNote(rt: SessionRuntime, to: Preset): string | undefined {
  if (!rt.session.history.length) return undefined;
  const tokens = rt.context.gauge?.(rt.session.history, rt.system).usedTokens ?? 0;
  return describeSwitch(tokens, rt.preset, to);
}

export function switchQuestion(from: Preset, to: Preset, note: string): QuestionInput {
  return {
    kind: 'model-switch',
    title: `Switch to ${to.name}?`,
    lines: [note],
    choices: [
      { key: 'y', label: `switch to ${to.name}`, value: 'switch' },
      { key: 'n', label: `keep ${from.name}`, value: 'keep' },
    ],
    fallback: 'switch',
    cancel: 'keep',
  };
}
