/**
 * A prompt's request leaves before the view redraws. Redrawing the whole screen after Enter (the
 * emptied input, the prompt in the transcript) costs Ink tens of milliseconds of layout and
 * string work on a busy machine; run at once, it sat between Enter and the request, whose
 * socket connects and writes in the event loop's next poll phase. Two check-phase hops put the
 * redraw after that poll: the request is written first, and the screen follows a moment later.
 * State that keys read (the composer's ref) is updated at once; only what React draws waits.
 */
export function afterTheRequestLeaves(redraw: () => void): void {
  setImmediate(() => setImmediate(redraw));
}
