import { useCallback, useEffect, useRef } from 'react';
import { useInput, useStdin } from 'ink';
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

/** Layers a paste may reach: only what edits text (a pasted "y" must not answer an approval). */
const PASTE_LAYERS = new Set(['typing-clock', 'composer']);

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
  // Esc pressed twice while the app was busy reaches Ink as one "\x1b\x1b", which it reports as a
  // single (Alt+)Esc; the raw event, seen first, tells the two presses apart (Esc Esc opens rewind).
  const doubleEscape = useRef(false);
  const { internal_eventEmitter: rawInput } = useStdin();
  useEffect(() => {
    // Registered before useInput's own listener (effects run in order), so it sees each event first.
    const onRaw = (data: unknown): void => {
      doubleEscape.current = data === '\x1b\x1b';
    };
    rawInput?.on('input', onRaw);
    return () => void rawInput?.removeListener('input', onRaw);
  }, [rawInput]);
  const onInput = useCallback((input: string, key: Parameters<Parameters<typeof useInput>[0]>[1]) => {
    const now = Date.now();
    // A paste arrives in one burst: if its end marker was lost, Enter must not stay a newline.
    if (pasting.current && now - lastInputAt.current > PASTE_IDLE_MS) pasting.current = false;
    lastInputAt.current = now;
    if (input === PASTE_START || input === PASTE_END) {
      pasting.current = input === PASTE_START;
      return;
    }
    const parsedAll: KeyCommand[] = key.escape && doubleEscape.current ? [{ name: 'escape' }, { name: 'escape' }] : toKeyCommands(input, key);
    doubleEscape.current = false;
    for (const parsed of parsedAll) {
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
