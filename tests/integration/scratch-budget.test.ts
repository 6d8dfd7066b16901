// The scratch disk's budget (decision 016): uploads reserve their most before a byte is written, past the budget
// or the volume's free-space floor they are refused with 503 and Retry-After, every way out removes the scratch
// file and frees the place, and the start-up sweep removes what a crash left.
import express from "express";
import { mkdirSync, writeFileSync } from "node:fs";
import { statfs } from "node:fs/promises";
import { createServer } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { action as saveDraftAction } from "../../app/routes/api.save-draft";
import { readDesignForm } from "../../app/routes/upload/design-form.server";
import { ScratchBudget, scratchConfig, sweepScratch } from "../../app/services/storage/scratch.server";
import { readStreamedForm } from "../../app/utils/streamed-form.server";
import { AppError } from "../../app/domain/app-error";
import { createRemixRequest } from "../../server/remix-handler";
import { ArrivalGuard, ARRIVAL_RULES } from "../../server/request-arrival";
import { args, createTestUser, run, sessionCookieFor, streamedMultipart } from "../setup/requests";
import { fileOf, multipartRequest, storedFiles } from "../fixtures/designs/helpers";
import { testUploadsDir } from "../setup/uploads";

const MIB = 1024 * 1024;
const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";
const uploads = testUploadsDir();
const incoming = () => storedFiles(uploads).filter((path) => path.includes(".incoming"));

let cookie: string;
beforeAll(async () => {
  cookie = await sessionCookieFor((await createTestUser())!.id);
});

/** This process's budget for one test. */
function budgetOf(settings: { budgetBytes: number; minFreeBytes: number }) {
  const budget = new ScratchBudget({ ...scratchConfig(), ...settings });
  globalThis.__printnearScratchBudget = budget;
  return budget;
}
afterEach(() => {
  globalThis.__printnearScratchBudget = undefined;
});

/** A streamed upload that counts what the server read of it. */
function countedUpload(bytes: number) {
  const request = streamedMultipart("http://localhost:3000/api/save-draft", "file", bytes, {}, { cookie });
  const state = { read: 0 };
  const reader = request.body!.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        state.read++;
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    },
    { highWaterMark: 0 },
  );
  const counted = new Request(request.url, { method: "POST", headers: request.headers, body, duplex: "half" } as RequestInit);
  return { request: counted, state };
}

describe("the scratch budget", () => {
  it("refuses an upload past the budget with 503 and Retry-After before a byte is read, and takes it once there is room", async () => {
    const budget = budgetOf({ budgetBytes: 60 * MIB, minFreeBytes: 0 });
    const held = await budget.reserve(20 * MIB);
    const refused = countedUpload(MIB);
    const answer = await run(() => saveDraftAction(args(refused.request)));
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("60");
    expect(refused.state.read).toBe(0);
    expect(incoming()).toEqual([]);

    held.release();
    const taken = await run(() =>
      saveDraftAction(args(multipartRequest("/api/save-draft", [["file", fileOf(CUBE_STL)]], { cookie }))),
    );
    expect(taken.status).toBe(201);
    expect(budget.inFlight()).toBe(0);
  });

  it("keeps the volume's free-space floor, counting every reservation as written", async () => {
    const volume = await statfs(scratchConfig().directory).catch(() => statfs(uploads));
    const free = volume.bavail * volume.bsize;
    const budget = budgetOf({ budgetBytes: Number.MAX_SAFE_INTEGER, minFreeBytes: free - 10 * MIB });
    await expect(budget.reserve(5 * MIB)).resolves.toMatchObject({ bytes: 5 * MIB });
    await expect(budget.reserve(20 * MIB)).rejects.toMatchObject({ code: "busy", retryAfterSeconds: 60 });
    expect(budget.inFlight()).toBe(5 * MIB);
  });

  it("reserves the declared length when it is less than the form's most", async () => {
    const budget = budgetOf({ budgetBytes: 60 * MIB, minFreeBytes: 0 });
    const request = multipartRequest("/api/save-draft", [["file", fileOf(CUBE_STL)]], { cookie });
    const bytes = new Uint8Array(await request.arrayBuffer());
    const declared = new Request(request.url, {
      method: "POST",
      headers: { "content-type": request.headers.get("content-type")!, "content-length": String(bytes.byteLength), cookie },
      body: bytes,
    });
    const reserved: number[] = [];
    const reserve = budget.reserve.bind(budget);
    budget.reserve = (wanted) => (reserved.push(wanted), reserve(wanted));
    const form = await readDesignForm(declared);
    expect(reserved).toEqual([bytes.byteLength]);
    await form.discard();
    expect(budget.inFlight()).toBe(0);
  });
});

describe("every way out removes the scratch file and frees its place", () => {
  const spec = (incomingPath: () => string) => ({
    files: { file: { maxBytes: 2 * MIB, tooLarge: new AppError("too_large", "too large") } },
    unreadable: new AppError("invalid", "unreadable"),
    tooManyFiles: new AppError("invalid", "too many"),
    notMultipart: null,
    defaultName: "design",
    incomingPath,
    reserve: (bytes: number) => globalThis.__printnearScratchBudget!.reserve(bytes),
  });
  const scratchPath = () => join(scratchConfig().directory, `test-${Math.random().toString(36).slice(2)}`);

  it("a file cut at its limit, and a file that cannot be written (the disk full, the folder gone)", async () => {
    const budget = budgetOf({ budgetBytes: 60 * MIB, minFreeBytes: 0 });
    const cut = await readStreamedForm(streamedMultipart("http://localhost/x", "file", 3 * MIB), spec(scratchPath));
    expect(cut.error?.message).toBe("too large");
    const unwritable = await readStreamedForm(
      streamedMultipart("http://localhost/x", "file", MIB),
      spec(() => join(uploads, "no-such-folder", "file")),
    );
    expect(unwritable.error).toMatchObject({ code: "busy" });
    expect(incoming()).toEqual([]);
    expect(budget.inFlight()).toBe(0);
  });

  it("an upload whose client goes away halfway", async () => {
    const budget = budgetOf({ budgetBytes: 200 * MIB, minFreeBytes: 0 });
    const settled: string[] = [];
    const app = express();
    app.use(new ArrivalGuard(ARRIVAL_RULES).middleware);
    app.post("/upload", async (req, res) => {
      const request = createRemixRequest(req, res);
      if (!request) return;
      const form = await readDesignForm(request);
      settled.push(form.error?.code ?? "none");
      await form.discard();
      if (!res.headersSent) res.status(400).end();
    });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
      socket.on("error", () => {});
      const boundary = "b";
      socket.write(
        `POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${4 * MIB}\r\n\r\n`,
      );
      socket.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.stl"\r\n\r\n`);
      socket.write(Buffer.alloc(MIB));
      await expect.poll(() => incoming().length).toBe(1);
      // then the connection breaks: the form's reader must give up its file rather than wait for the rest
      socket.destroy();
      await expect.poll(() => settled).toEqual(["invalid"]);
      expect(incoming()).toEqual([]);
      expect(budget.inFlight()).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the start-up sweep", () => {
  it("removes what a crash left in scratch", async () => {
    const dir = scratchConfig().directory;
    mkdirSync(dir, { recursive: true });
    for (const name of ["a", "b", "c"]) writeFileSync(join(dir, name), "left over");
    expect(incoming().length).toBe(3);
    expect(await sweepScratch(dir)).toBe(3);
    expect(incoming()).toEqual([]);
  });
});
