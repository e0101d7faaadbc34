import { useCallback, useRef } from 'react';
import { useInput } from 'ink';
import { toKeyCommands, type KeyCommand } from './key-commands.js';

/**
 * One layer of key handling. Layers are asked in priority order (modal, then panels, then the
 * app's global keys, then the composer, then the transcript); the first that returns true
 * consumes the key. An inactive layer is skipped, so an open modal owns the keyboard simply by
 * consuming everything.
 */
export interface KeyLayer {
  readonly name: string;
  readonly active: boolean;
  handle(command: KeyCommand): boolean;
}

/** Bracketed paste markers as Ink hands them over (it strips the ESC). */
const PASTE_START = '[200~';
const PASTE_END = '[201~';
const PASTE_IDLE_MS = 1000;

/**
 * Layers a paste may reach: only what edits text (a pasted "y" must not answer an approval). The
 * approval's reason field is one: its layer keeps the paste from the input below it.
 */
const PASTE_LAYERS = new Set(['typing-clock', 'composer', 'approval-text']);

/**
 * The single useInput of the app: named commands, one router, explicit priorities. Inside a
 * bracketed paste, Enter is a newline (pasting lines does not send them) and only the input
 * takes the text.
 */
export function useKeyRouter(layers: readonly KeyLayer[], isActive = true): void {
  const ref = useRef(layers);
  ref.current = layers;
  const pasting = useRef(false);
  const lastInputAt = useRef(0);
  const onInput = useCallback((input: string, key: Parameters<Parameters<typeof useInput>[0]>[1]) => {
    const now = Date.now();
    // A paste arrives in one burst: if its end marker was lost, Enter must not stay a newline.
    if (pasting.current && now - lastInputAt.current > PASTE_IDLE_MS) pasting.current = false;
    lastInputAt.current = now;
    if (input === PASTE_START || input === PASTE_END) {
      pasting.current = input === PASTE_START;
      return;
    }
    for (const parsed of toKeyCommands(input, key)) {
      const command: KeyCommand = pasting.current && parsed.name === 'submit' ? { name: 'newline' } : parsed;
      if (command.name === 'none') continue;
      for (const layer of ref.current) {
        if (pasting.current && !PASTE_LAYERS.has(layer.name)) continue;
        if (layer.active && layer.handle(command)) break;
      }
    }
  }, []);
  useInput(onInput, { isActive });
}
