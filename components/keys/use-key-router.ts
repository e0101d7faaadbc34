import { useCallback, useEffect, useRef } from 'react';
import { useInput, useStdin } from 'ink';
import { rawKeyCommand, toKeyCommands, type KeyCommand } from './key-commands.js';

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

/** Bracketed paste markers as they arrive from the terminal. */
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
const PASTE_IDLE_MS = 1000;

/**
 * Layers a paste may reach: only what edits text (a pasted "y" must not answer an approval). The
 * approval's reason field is one: its layer keeps the paste from the input below it.
 */
const PASTE_LAYERS = new Set(['typing-clock', 'composer', 'approval-text']);

type InkKey = Parameters<Parameters<typeof useInput>[0]>[1];

/**
 * The single key input of the app: named commands, one router, explicit priorities. A bracketed
 * paste is gathered whole and handed over as one `paste` command when its end marker arrives: a
 * 5,000-line paste comes in hundreds of chunks, and handling each as typed text would re-render
 * the input for every one of them. Only the input takes a paste.
 */
export function useKeyRouter(layers: readonly KeyLayer[], isActive = true): void {
  const ref = useRef(layers);
  ref.current = layers;
  const paste = useRef<string[] | null>(null);
  const lastInputAt = useRef(0);
  // The raw sequence of the key useInput is about to report (Ink names some keys alike).
  const raw = useRef('');
  const { internal_eventEmitter: events } = useStdin();

  const dispatch = useCallback((command: KeyCommand, pasting: boolean) => {
    if (command.name === 'none') return;
    for (const layer of ref.current) {
      if (pasting && !PASTE_LAYERS.has(layer.name)) continue;
      if (layer.active && layer.handle(command)) break;
    }
  }, []);

  const endPaste = useCallback(() => {
    const parts = paste.current;
    paste.current = null;
    if (parts && parts.length > 0) dispatch({ name: 'paste', text: parts.join('') }, true);
  }, [dispatch]);

  // Registered before useInput's listener (effects run in order), so it sees each sequence first.
  useEffect(() => {
    if (!isActive || !events) return;
    const onRaw = (data: string): void => {
      const now = Date.now();
      // A paste arrives in one burst: if its end marker was lost, what follows is typed again.
      if (paste.current && now - lastInputAt.current > PASTE_IDLE_MS) endPaste();
      lastInputAt.current = now;
      raw.current = data;
      if (data === PASTE_START) {
        paste.current = [];
      } else if (data === PASTE_END) {
        endPaste();
      } else if (paste.current) {
        paste.current.push(data);
      } else {
        return;
      }
      // Taken here: useInput's report of the same sequence is skipped.
      raw.current = '\0taken';
    };
    events.prependListener('input', onRaw);
    return () => {
      events.removeListener('input', onRaw);
    };
  }, [events, isActive, endPaste]);

  const onInput = useCallback(
    (input: string, key: InkKey) => {
      const sequence = raw.current;
      raw.current = '';
      if (sequence === '\0taken') return;
      const special = rawKeyCommand(sequence);
      // Esc pressed twice while the app was busy reaches Ink as one "\x1b\x1b", which it reports as
      // a single (Alt+)Esc; the raw sequence tells the two presses apart (Esc Esc opens rewind).
      const twoEscapes = key.escape && sequence === '\x1b\x1b';
      const commands: KeyCommand[] = special ? [special] : twoEscapes ? [{ name: 'escape' }, { name: 'escape' }] : toKeyCommands(input, key);
      for (const command of commands) dispatch(command, false);
    },
    [dispatch],
  );
  useInput(onInput, { isActive });
}
