/**
 * The conversation as a checkpoint keeps it: each message stored once as a blob (its JSON), the
 * checkpoint holding their hashes in order, plus the system prompt it was sent with. Restoring
 * gives back the same messages, value for value, so the next request starts with exactly the
 * prefix the provider has cached — even when a summary or an offload rewrote history since.
 */
import type { Message } from '../providers/types.js';
import type { BlobStore } from './blob-store.js';
import type { ConversationRef } from './types.js';

export interface ConversationState {
  readonly history: readonly Message[];
  readonly system: string;
  readonly codeMapText?: string;
  readonly turns: number;
}

/** The conversation of a session runtime as a checkpoint keeps it. */
export function conversationOf(rt: {
  readonly session: { readonly history: readonly Message[]; readonly turns: number };
  readonly system: string;
  readonly codeMapText?: string;
}): ConversationState {
  return {
    // A copy: the checkpoint is written while the turn goes on, and the prompt joins the history at once.
    history: [...rt.session.history],
    system: rt.system,
    ...(rt.codeMapText !== undefined ? { codeMapText: rt.codeMapText } : {}),
    turns: rt.session.turns,
  };
}

/** Message objects already stored, by identity: history keeps its objects from turn to turn. */
const stored = new WeakMap<object, string>();

async function putText(blobs: BlobStore, text: string): Promise<string> {
  return blobs.put(Buffer.from(text, 'utf8'));
}

/**
 * Stores the conversation's messages and prompt. `redact` cleans a JSON text of secrets first, as a
 * saved session is cleaned: a message that held an API key comes back with [REDACTED] in its place.
 */
export async function snapshotConversation(blobs: BlobStore, state: ConversationState, redact: (json: string) => string = (j) => j): Promise<ConversationRef> {
  const messages: string[] = [];
  const text = (value: string): string => JSON.parse(redact(JSON.stringify(value))) as string;
  for (const message of state.history) {
    let hash = stored.get(message);
    // A hash remembered from another store (a /clear into a --no-save run) is only used when present.
    if (hash === undefined || !blobs.has(hash)) {
      hash = await putText(blobs, redact(JSON.stringify(message)));
      stored.set(message, hash);
    }
    messages.push(hash);
  }
  return {
    messages,
    system: await putText(blobs, text(state.system)),
    ...(state.codeMapText !== undefined ? { codeMap: await putText(blobs, text(state.codeMapText)) } : {}),
    turns: state.turns,
  };
}

export async function loadConversation(blobs: BlobStore, ref: ConversationRef): Promise<ConversationState> {
  const history: Message[] = [];
  for (const hash of ref.messages) history.push(JSON.parse((await blobs.get(hash)).toString('utf8')) as Message);
  const system = (await blobs.get(ref.system)).toString('utf8');
  const codeMapText = ref.codeMap !== undefined ? (await blobs.get(ref.codeMap)).toString('utf8') : undefined;
  return { history, system, ...(codeMapText !== undefined ? { codeMapText } : {}), turns: ref.turns };
}

/** Every blob a conversation names. */
export function conversationHashes(ref: ConversationRef | undefined): string[] {
  if (!ref) return [];
  return [...ref.messages, ref.system, ...(ref.codeMap !== undefined ? [ref.codeMap] : [])];
}
