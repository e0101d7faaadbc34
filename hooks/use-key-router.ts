import { useCallback, useRef } from 'react';
import { useInput } from 'ink';
import { toKeyCommands, type KeyCommand } from '../components/keys/key-commands.js';

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

/** The single useInput of the app: named commands, one router, explicit priorities. */
export function useKeyRouter(layers: readonly KeyLayer[], isActive = true): void {
  const ref = useRef(layers);
  ref.current = layers;
  const onInput = useCallback((input: string, key: Parameters<Parameters<typeof useInput>[0]>[1]) => {
    for (const command of toKeyCommands(input, key)) {
      if (command.name === 'none') continue;
      for (const layer of ref.current) {
        if (layer.active && layer.handle(command)) break;
      }
    }
  }, []);
  useInput(onInput, { isActive });
}
