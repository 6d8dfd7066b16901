// The page's loader data reaches the document as Remix's hand-off stream (turbo-stream bytes), which <Scripts>
// reads a piece at a time during the render, suspending it until each piece comes. By the time the document
// renders, every loader has finished (utils/whole-document.server.ts), so the data is read here whole and given
// to the render as already read (EntryContext.renderMeta.streamCache, where <Scripts> keeps what it has read):
// the render then never waits and finishes in one pass (decision 036).
import type { EntryContext } from "@remix-run/node";

type StreamCache = NonNullable<NonNullable<EntryContext["renderMeta"]>["streamCache"]>;

/** A piece of the stream as <Scripts> keeps one it has read: a settled promise with its result. */
function alreadyRead(done: boolean, value: string): StreamCache[number] {
  return Object.assign(Promise.resolve(), { result: { done, value } });
}

/**
 * Reads the hand-off stream whole and hands its text to the render as its first piece, then its end. A stream
 * that fails is left as it is, so the render meets the failure as it would have.
 */
export async function readHandOffAhead(context: EntryContext): Promise<void> {
  const stream = context.serverHandoffStream;
  if (!stream || !context.renderMeta) return;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  } catch {
    return;
  } finally {
    reader.releaseLock();
  }
  context.renderMeta.streamCache = { 0: alreadyRead(false, text), 1: alreadyRead(true, "") };
}
