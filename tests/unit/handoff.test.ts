import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { readHandOffAhead } from "../../app/utils/handoff.server";

/** The part of Remix's entry context the hand-off uses, with a stream of these byte pieces (or a failure after them). */
function contextWith(pieces: Uint8Array[], failure?: Error) {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      if (failure) controller.error(failure);
      else controller.close();
    },
  });
  return { serverHandoffStream: stream, renderMeta: {} } as unknown as EntryContext & {
    serverHandoffStream: ReadableStream<Uint8Array>;
    renderMeta: NonNullable<EntryContext["renderMeta"]>;
  };
}

describe("the hand-off read ahead", () => {
  it("gives the render the whole text as its first piece, then the end, and frees the stream", async () => {
    const bytes = new TextEncoder().encode('[{"name":"Zoë"},"Ünterhaching"]');
    // a character split between two pieces is decoded whole
    const split = bytes.indexOf(0xc3) + 1;
    const context = contextWith([bytes.slice(0, split), bytes.slice(split)]);
    await readHandOffAhead(context);
    const cache = context.renderMeta.streamCache!;
    expect(cache[0]!.result).toEqual({ done: false, value: '[{"name":"Zoë"},"Ünterhaching"]' });
    expect(cache[1]!.result).toEqual({ done: true, value: "" });
    await expect(cache[0]).resolves.toBeUndefined();
    // <Scripts> still takes a reader of its own: the stream is not locked
    expect(context.serverHandoffStream.locked).toBe(false);
    expect((await context.serverHandoffStream.getReader().read()).done).toBe(true);
  });

  it("leaves a stream that fails to the render, which meets the failure as it would have", async () => {
    const context = contextWith([new TextEncoder().encode("[1]")], new Error("timed out"));
    await readHandOffAhead(context);
    expect(context.renderMeta.streamCache).toBeUndefined();
    expect(context.serverHandoffStream.locked).toBe(false);
    await expect(context.serverHandoffStream.getReader().read()).rejects.toThrow("timed out");
  });
});
