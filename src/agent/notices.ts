/** Notices the engine puts in the transcript whose exact text the view recognises (a tiny module: the view imports it). */

/** A prompt whose request failed before any reply was taken back out of the history (turn-loop.ts). */
export const PROMPT_TAKEN_BACK = 'The request failed before any reply, so this prompt was not kept in the conversation: send it again once the problem is fixed.';
