import { describe, expect, it } from "vitest";
import { writeBodyByTurn } from "../../server/remix-handler";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("writing a streamed page", () => {
  it("writes the chunks of one event-loop turn together: one cork, one flush", async () => {
    const calls: string[] = [];
    const decoder = new TextDecoder();
    const sink = {
      cork: () => calls.push("cork"),
      uncork: () => calls.push("uncork"),
      flush: () => calls.push("flush"),
      write: (chunk: Uint8Array) => calls.push(`write ${decoder.decode(chunk)}`) > 0,
      end: () => calls.push("end"),
      destroy: () => calls.push("destroy"),
    };
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const encoder = new TextEncoder();
    const written = writeBodyByTurn(body, sink as never);
    for (const text of ["<html>", "<body>", "shell"]) controller.enqueue(encoder.encode(text));
    await nextTurn();
    await nextTurn();
    expect(calls).toEqual(["cork", "write <html>", "write <body>", "write shell", "flush", "uncork"]);

    // a later turn (streamed data) goes out as it comes; end() sends the rest
    for (const text of ["late", "</html>"]) controller.enqueue(encoder.encode(text));
    controller.close();
    await written;
    await nextTurn();
    expect(calls.slice(6)).toEqual(["cork", "write late", "write </html>", "end"]);
  });

  it("destroys the response when the body fails", async () => {
    const calls: string[] = [];
    const sink = {
      cork() {},
      uncork() {},
      write: () => true,
      end: () => calls.push("end"),
      destroy: () => calls.push("destroy"),
    };
    const body = new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error("render failed")) });
    await expect(writeBodyByTurn(body, sink as never)).rejects.toThrow("render failed");
    expect(calls).toEqual(["destroy"]);
  });
});
