import type * as ReplyStream from './store-reply-stream';

// A reply's stream, the chat client and the live stream's handling are their own chunk: opening the panel does not
// need it; the visitor's first keystroke starts loading it, and the first send waits for it.
let replyModule: Promise<typeof ReplyStream> | undefined;
export const loadReply = () => (replyModule ??= import('./store-reply-stream'));
