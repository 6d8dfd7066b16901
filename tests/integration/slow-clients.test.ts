// Slow clients: a request must arrive at a fair pace, and one address or the machine holds only so
// many bodies still arriving (server/request-arrival.ts). A real Node server with the server's own
// options and middleware, the body read through the counted Remix request; the rules shrunk to
// tens of milliseconds so nothing waits long.
import express from "express";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClientAddress } from "../../server/client-address";
import { createRemixRequest } from "../../server/remix-handler";
import { ArrivalGuard, httpServerOptions, type ArrivalRules } from "../../server/request-arrival";

process.env.TRUST_PROXY = "fly";

async function startServer(rules: ArrivalRules) {
  const guard = new ArrivalGuard(rules);
  const app = express();
  app.use(setClientAddress);
  app.use(guard.middleware);
  // reads the whole body, as an action does, and says how much arrived
  app.post("/contact", async (req, res) => {
    const request = createRemixRequest(req, res);
    if (!request) return;
    try {
      const text = await request.text();
      if (!res.headersSent) res.type("text/plain").send(String(text.length));
    } catch {
      if (!res.headersSent) res.status(500).end();
    }
  });
  // a route with the uploads' 60 MB limit, read the same way
  app.post("/upload-model", async (req, res) => {
    const request = createRemixRequest(req, res);
    if (!request) return;
    try {
      const bytes = await request.arrayBuffer();
      if (!res.headersSent) res.type("text/plain").send(String(bytes.byteLength));
    } catch {
      if (!res.headersSent) res.status(500).end();
    }
  });
  // answers without reading the body, as the cross-site check does
  app.post("/early", (_req, res) => res.status(403).end());
  const server: Server = createServer(httpServerOptions(rules), app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { guard, server, port: (server.address() as AddressInfo).port };
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: string;
}

function parseAnswer(raw: string): Answer {
  const [head, ...rest] = raw.split("\r\n\r\n");
  const lines = head.split("\r\n");
  const retry = lines.find((line) => line.toLowerCase().startsWith("retry-after:"));
  return {
    status: Number(lines[0]?.split(" ")[1] ?? 0),
    retryAfter: retry ? retry.slice(retry.indexOf(":") + 1).trim() : null,
    body: rest.join("\r\n\r\n"),
  };
}

/** One chunk of a chunked body. */
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

const sockets: Array<ReturnType<typeof connect>> = [];
const timers: Array<ReturnType<typeof setInterval>> = [];

afterEach(() => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const socket of sockets.splice(0)) socket.destroy();
});

/**
 * A POST over a raw socket, its body sent by hand. `answered` is the status line and headers as soon as they
 * come; `closed` the whole answer once the server has closed the connection.
 */
function post(port: number, path: string, options: { length: number | "chunked"; address?: string; keepAlive?: boolean }) {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  let raw = "";
  socket.setEncoding("utf8");
  socket.on("error", () => {}); // writes after the server's close
  const answered = new Promise<Answer>((resolve) => {
    const onData = (chunk: string) => {
      raw += chunk;
      if (raw.includes("\r\n\r\n")) resolve(parseAnswer(raw));
    };
    socket.on("data", onData);
    socket.on("close", () => resolve(parseAnswer(raw)));
  });
  const closed = new Promise<Answer>((resolve) => socket.on("close", () => resolve(parseAnswer(raw))));
  const headers = [
    `POST ${path} HTTP/1.1`,
    "Host: localhost",
    "Content-Type: text/plain",
    options.length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${options.length}`,
    options.keepAlive ? "Connection: keep-alive" : "Connection: close",
    ...(options.address ? [`Fly-Client-IP: ${options.address}`] : []),
  ];
  socket.write(`${headers.join("\r\n")}\r\n\r\n`);
  return {
    answered,
    closed,
    send: (text: string) => socket.write(options.length === "chunked" ? chunk(text) : text),
    /** one byte every `everyMs` until the connection closes */
    trickle(everyMs: number) {
      const byte = options.length === "chunked" ? chunk("a") : "a";
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(byte)), everyMs);
      timers.push(timer);
    },
    abort: () => socket.destroy(),
  };
}

/** A server with these rules for the tests of one describe block. */
function serverWith(rules: ArrivalRules) {
  const handle = {} as Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    Object.assign(handle, await startServer(rules));
  });
  afterAll(() => new Promise<void>((resolve) => handle.server.close(() => resolve())));
  return handle;
}

/** The arrival rules in tens and hundreds of milliseconds. */
const QUICK: ArrivalRules = {
  headersMs: 300,
  requestMs: 60_000,
  graceMs: 300,
  minBytesPerSecond: 1000,
  idleMs: 600,
  // a 16 KB text form's deadline is about 30 s: out of the way of the tests that don't look at it
  deadlineBaseMs: 30_000,
  deadlineBytesPerSecond: 100_000,
  drainBytes: 1000,
  drainMs: 300,
  perAddress: 8,
  total: 100,
  checkMs: 10,
};

describe("a request must keep arriving", () => {
  const server = serverWith(QUICK);

  it("cuts headers that trickle in past the headers' time with 408", async () => {
    const socket = connect(server.port, "127.0.0.1");
    sockets.push(socket);
    let raw = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (raw += chunk));
    socket.on("error", () => {});
    socket.write("POST /contact HTTP/1.1\r\nHost: localhost\r\n");
    const timer = setInterval(() => !socket.destroyed && socket.write("X-Slow: 1\r\n"), 50);
    timers.push(timer);
    await new Promise((resolve) => socket.on("close", resolve));
    expect(parseAnswer(raw).status).toBe(408);
  });

  it("cuts a body that sends a byte at a time with 408 and frees its place", async () => {
    const slow = post(server.port, "/contact", { length: 1000 });
    slow.trickle(50);
    const answer = await slow.closed;
    expect(answer.status).toBe(408);
    expect(answer.body).toMatch(/took too long to arrive/);
    await expect.poll(() => server.guard.unfinished()).toBe(0);
  });

  it("cuts a body that goes silent halfway", async () => {
    const stalled = post(server.port, "/contact", { length: 20_000 });
    await expect.poll(() => server.guard.unfinished()).toBe(1);
    // well above the minimum rate so far (ten seconds' worth), then nothing
    stalled.send("a".repeat(10_000));
    expect((await stalled.closed).status).toBe(408);
  });

  it("lets a body through that keeps the minimum rate past the grace period", async () => {
    const steady = post(server.port, "/contact", { length: 20_000 });
    let sent = 0;
    const timer = setInterval(() => {
      steady.send("a".repeat(1000));
      sent += 1000;
      if (sent >= 20_000) clearInterval(timer);
    }, 25);
    timers.push(timer);
    const answer = await steady.closed;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("20000");
  });

  it("still cuts a slow body whose request was answered without reading it", async () => {
    const slow = post(server.port, "/early", { length: 1000, keepAlive: true });
    slow.trickle(50);
    expect((await slow.answered).status).toBe(403);
    // the rest would be read and dropped at the client's pace; below the minimum rate the connection goes
    await slow.closed;
    await expect.poll(() => server.guard.unfinished()).toBe(0);
  });
});

describe("bodies still arriving are capped per address and in all", () => {
  // bodies are held as long as the test likes; only the counts matter here
  const server = serverWith({ ...QUICK, graceMs: 60_000, minBytesPerSecond: 1, idleMs: 60_000, perAddress: 2, total: 3 });
  const A = "203.0.113.1";
  const B = "203.0.113.2";
  const C = "203.0.113.3";

  /** Two bodies from one address, started and left unfinished. */
  async function holdTwoFrom(address: string) {
    const held = [1, 2].map(() => post(server.port, "/contact", { length: 10, address }));
    for (const body of held) body.send("a");
    await expect.poll(() => server.guard.unfinished(address)).toBe(2);
    return held;
  }

  it("refuses an address past its cap with 429 while another address gets through, and the machine past its cap with 503", async () => {
    await holdTwoFrom(A);

    const a3 = await post(server.port, "/contact", { length: 10, address: A }).answered;
    expect(a3.status).toBe(429);
    expect(a3.retryAfter).toBe("10");

    const b1 = post(server.port, "/contact", { length: 5, address: B });
    b1.send("bbbbb");
    expect((await b1.closed).status).toBe(200);

    // two from A and one from B still arriving fill the machine's three places
    const b2 = post(server.port, "/contact", { length: 10, address: B });
    b2.send("b");
    await expect.poll(() => server.guard.unfinished()).toBe(3);
    const c1 = await post(server.port, "/contact", { length: 10, address: C }).answered;
    expect(c1.status).toBe(503);
    expect(c1.retryAfter).toBe("5");
  });

  it("frees a place when a body completes and when its connection closes", async () => {
    const [a1, a2] = await holdTwoFrom(A);

    a1.send("a".repeat(9));
    expect((await a1.closed).body).toBe("10");
    await expect.poll(() => server.guard.unfinished(A)).toBe(1);

    a2.abort();
    await expect.poll(() => server.guard.unfinished(A)).toBe(0);
    const a3 = post(server.port, "/contact", { length: 3, address: A });
    a3.send("abc");
    expect((await a3.closed).status).toBe(200);
  });
});

describe("a body's deadline grows with what its route may take", () => {
  // a 16 KB text form may take 200 ms + 16 KB at 100 KB/s, about 0.36 s; the uploads' 60 MB, ten minutes
  const server = serverWith({ ...QUICK, graceMs: 60_000, minBytesPerSecond: 1, deadlineBaseMs: 200 });

  it("cuts a body sent fast and then kept open a byte at a time at its deadline, not at the rate rule's", async () => {
    const started = Date.now();
    const held = post(server.port, "/contact", { length: 16_000 });
    held.send("a".repeat(15_000));
    held.trickle(50);
    const answer = await held.closed;
    expect(answer.status).toBe(408);
    // the rate rule alone (60 s of grace) would hold it for a minute
    expect(Date.now() - started).toBeLessThan(2000);
    await expect.poll(() => server.guard.unfinished()).toBe(0);
  });

  it("gives a route with a larger limit the longer deadline its limit buys", async () => {
    const upload = post(server.port, "/upload-model", { length: "chunked" });
    upload.send("a".repeat(15_000));
    upload.trickle(50);
    const form = post(server.port, "/contact", { length: "chunked" });
    form.send("a".repeat(15_000));
    form.trickle(50);
    expect((await form.closed).status).toBe(408);
    // cut where the text form was, the upload is still arriving
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.guard.unfinished()).toBe(1);
  });
});

describe("a request answered before its body arrived frees its place when the answer is sent", () => {
  // places are held only by bodies still arriving: nothing here would be cut by the arrival rules
  const server = serverWith({ ...QUICK, graceMs: 60_000, minBytesPerSecond: 1, idleMs: 60_000, perAddress: 2, total: 3 });

  it("answered posts whose clients went quiet leave every place free for the next post", async () => {
    // the caps filled with posts answered early (401 or 403 before the body is read), their clients gone quiet
    const early = ["203.0.113.1", "203.0.113.1", "203.0.113.2"].map((address) => {
      const one = post(server.port, "/early", { length: 1000, address, keepAlive: true });
      one.send("a".repeat(10));
      return one;
    });
    for (const one of early) expect((await one.answered).status).toBe(403);
    expect(server.guard.unfinished()).toBe(0);
    const next = post(server.port, "/contact", { length: 5, address: "203.0.113.3" });
    next.send("abcde");
    const answer = await next.closed;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("5");
  });

  it("drains the rest within its own bytes: past them the connection closes", async () => {
    const early = post(server.port, "/early", { length: 100_000, keepAlive: true });
    expect((await early.answered).status).toBe(403);
    const started = Date.now();
    early.send("a".repeat(5000));
    await early.closed;
    expect(Date.now() - started).toBeLessThan(250);
  });

  it("drains the rest within its own time: a client that sends no more is closed", async () => {
    const early = post(server.port, "/early", { length: 100_000, keepAlive: true });
    early.send("a");
    expect((await early.answered).status).toBe(403);
    const started = Date.now();
    await early.closed;
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(1500);
  });
});
