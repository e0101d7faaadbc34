/**
 * When the view's input is live: Ink has begun reading the terminal (its first 'readable'
 * listener), and keys that waited in the terminal's buffer since the first frame have had their
 * turn in the event loop. The CLI starts the engine then, not at the first frame: the engine's
 * modules evaluate in one long stretch of the only thread, and keys typed at the first frame
 * echoed only after it. Where Ink never reads (no raw mode), `capMs` after the call.
 */
export interface InputSource {
  on(event: 'newListener', listener: (event: string | symbol) => void): unknown;
  off(event: 'newListener', listener: (event: string | symbol) => void): unknown;
}

export function whenInputLive(stdin: InputSource, live: () => void, capMs = 100): void {
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    clearTimeout(cap);
    stdin.off('newListener', onListener);
    // 'newListener' comes before the listener is added; the buffered keys are read in the poll
    // phase after it, and a check-phase hop puts the engine's start behind them.
    setImmediate(() => setImmediate(live));
  };
  const onListener = (event: string | symbol): void => {
    if (event === 'readable' || event === 'data') finish();
  };
  stdin.on('newListener', onListener);
  const cap = setTimeout(finish, capMs);
}
