/**
 * A prompt's request leaves before the view redraws (src/io/request-gate.ts): the emptied input
 * and the prompt in the transcript are drawn once the request is written. State that keys read
 * (the composer's ref) is updated at once; only what React draws waits.
 */
import { afterRequestLeaves } from '../src/io/request-gate.js';

export function afterTheRequestLeaves(redraw: () => void): void {
  afterRequestLeaves(redraw);
}
