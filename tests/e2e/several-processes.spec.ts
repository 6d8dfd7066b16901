// Two built app processes on one libSQL file and one bucket (s3rver, started here) work as one site: what one
// stores the other serves, a message written through one reaches a live stream held by the other, a write limit
// counts the writes of both, and a job whose worker is killed mid-way is finished by the other's worker.
// No browser: its tests are tagged @no-browser and run once (playwright.config.ts).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import type { Client } from "@libsql/client";
import sharp from "sharp";
import { categories, filamentInventory } from "../../db/schema";
import { CATEGORIES } from "../../db/seed";
import { openDatabase, type Database } from "../../app/utils/db.server";
import { startBucket, type TestBucket } from "../setup/bucket";
import { expect, test } from "./fixtures";
import { createPerson, createPrinterFor, freePort, startOwnServer } from "./helpers";

const CUBE_STL = "tests/fixtures/models/trimesh_20mm-xyz-cube.stl";
const DB = "tests/.tmp/e2e-processes.db";
const HOLD = `${DB}-hold-downloads`;
// a real 1×1 PNG
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da6364f8cf500f00038601805a347d6b0000000049454e44ae426082",
  "hex",
);

interface AppProcess {
  name: string;
  origin: string;
  server: ChildProcess;
}

let bucket: TestBucket;
let database: { client: Client; db: Database };
let a: AppProcess;
let b: AppProcess;

async function startApp(name: string): Promise<AppProcess> {
  const port = await freePort();
  const server = startOwnServer(port, DB, {
    ...bucket.env,
    // each machine has a disk of its own: only the scratch of arriving uploads is there
    UPLOADS_DIR: `${DB}-uploads-${name}`,
    LIVE_POLL_MS: "100",
    WORKER_POLL_MS: "200",
    WORKER_LEASE_MS: "1500",
    MOCK_CATALOGUE_HOLD_FILE: HOLD,
  });
  const origin = `http://localhost:${port}`;
  await expect.poll(async () => (await fetch(`${origin}/healthz`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
  return { name, origin, server };
}

const running = (app: AppProcess | undefined): app is AppProcess =>
  !!app?.server.pid && app.server.exitCode === null && app.server.signalCode === null;

/** Signals the app's whole process group and waits until it has exited. */
async function stop(app: AppProcess | undefined, signal: NodeJS.Signals = "SIGTERM") {
  if (!running(app)) return;
  const exited = new Promise((resolve) => app.server.once("exit", resolve));
  process.kill(-app.server.pid!, signal);
  await exited;
}

async function signIn(app: AppProcess, email: string): Promise<string> {
  const res = await fetch(`${app.origin}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "e2e-password-123" }),
  });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}

async function bytes(res: Response) {
  return Buffer.from(await res.arrayBuffer());
}

/** The server process group a worker id (host:pid:random) belongs to: the app process that runs that worker. */
function appOfWorker(workerId: string): AppProcess {
  const pid = workerId.split(":")[1];
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const group = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  const app = [a, b].find((candidate) => candidate.server.pid === group);
  if (!app) throw new Error(`worker ${workerId} belongs to neither app process`);
  return app;
}

/** A live stream's events as they arrive. */
async function openStream(app: AppProcess, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${app.origin}/events`, { headers: { cookie }, signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    /** Reads until an event of this kind whose data passes `wanted`. */
    async next(kind: string, wanted: (data: string) => boolean = () => true): Promise<string> {
      for (;;) {
        const end = buffered.indexOf("\n\n");
        if (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? "";
          if (event === kind && wanted(data)) return data;
          continue;
        }
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended before a ${kind} event`);
        buffered += value;
      }
    },
    close: () => controller.abort(),
  };
}

test.describe.serial("two app processes on one database and one bucket", () => {
  test.setTimeout(120_000);
  let customer: { email: string };
  let owner: { id: number; email: string };
  let printerId: number;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    for (const suffix of ["", "-wal", "-shm", "-uploads-A", "-uploads-B", "-outbox", "-bucket", "-hold-downloads"]) {
      rmSync(`${DB}${suffix}`, { recursive: true, force: true });
    }
    bucket = await startBucket(`${DB}-bucket`);
    // one after the other: the first applies the migrations
    a = await startApp("A");
    b = await startApp("B");
    database = await openDatabase({ ...process.env, DATABASE_URL: `file:${DB}` });
    customer = await createPerson("Cora", "customer", database.db);
    owner = await createPerson("Omar", "printer_owner", database.db);
    printerId = (await createPrinterFor(owner.id, "Omar's Prusa", database.db)).id;
    await database.db.insert(categories).values(CATEGORIES);
    await database.db.insert(filamentInventory).values({ printerId, material: "PLA", color: "Black", grams: 1000 });
  });

  test.afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
    database?.client.close();
    await bucket?.close();
  });

  test("a design uploaded through A: preview, file, order and the owner's download through B @no-browser", async () => {
    const customerOnA = await signIn(a, customer.email);
    const form = new FormData();
    form.append("file", new File([readFileSync(CUBE_STL)], "cube.stl"));
    form.append("material", "PLA");
    const saved = await fetch(`${a.origin}/api/save-draft`, { method: "POST", body: form, headers: { cookie: customerOnA } });
    expect(saved.status).toBe(201);
    const { jobId } = (await saved.json()) as { jobId: number };

    const customerOnB = await signIn(b, customer.email);
    const preview = await fetch(`${b.origin}/drafts/${jobId}/preview.png`, { headers: { cookie: customerOnB } });
    expect([preview.status, preview.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect((await bytes(preview)).subarray(1, 4).toString()).toBe("PNG");
    const file = await fetch(`${b.origin}/drafts/${jobId}/file`, { headers: { cookie: customerOnB } });
    expect((await bytes(file)).equals(readFileSync(CUBE_STL))).toBe(true);

    const order = await fetch(`${b.origin}/api/submit-order`, {
      method: "POST",
      headers: { cookie: customerOnB, "content-type": "application/json" },
      body: JSON.stringify({ printerId, draftId: jobId, filamentColor: "Black", deliveryMethod: "pickup" }),
    });
    expect([order.status, order.status === 201 || (await order.text())]).toEqual([201, true]);
    const { orderId } = (await order.json()) as { orderId: number };
    // paid through A (the test provider): from then on the printer's owner sees the order
    const paid = await fetch(`${a.origin}/api/confirm-payment`, {
      method: "POST",
      headers: { cookie: customerOnA, "content-type": "application/json" },
      body: JSON.stringify({ orderId, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123", name: "Cora Tester" }),
    });
    expect(await paid.json()).toEqual({ orderId, status: "confirmed" });
    const ownerOnB = await signIn(b, owner.email);
    const download = await fetch(`${b.origin}/api/print-jobs/${orderId}/download`, { headers: { cookie: ownerOnB } });
    expect(download.status).toBe(200);
    expect((await bytes(download)).equals(readFileSync(CUBE_STL))).toBe(true);

    // a message the customer writes through A reaches the owner's live stream held by B
    const stream = await openStream(b, ownerOnB);
    await stream.next("ready");
    const sent = await fetch(`${a.origin}/api/print-jobs/${orderId}/messages`, {
      method: "POST",
      headers: { cookie: customerOnA, "content-type": "application/json" },
      body: JSON.stringify({ message: "Black PLA, please." }),
    });
    expect(sent.status).toBe(201);
    const { id: messageId } = (await sent.json()) as { id: number };
    const heard = await stream.next("change", (data) => (JSON.parse(data) as { kind: string }).kind === "message");
    expect(JSON.parse(heard)).toEqual({ kind: "message", id: messageId, jobId: orderId });
    stream.close();
  });

  test("a library model with a picture uploaded through B is shown through A; comments count on both @no-browser", async () => {
    const onB = await signIn(b, customer.email);
    const form = new FormData();
    for (const [name, value] of Object.entries({
      name: "Two Machine Bracket",
      description: "Uploaded on one machine, shown on the other.",
      categoryId: "1",
      difficulty: "beginner",
      license: "CC BY",
    }))
      form.append(name, value);
    form.append("modelFile", new File([readFileSync(CUBE_STL)], "bracket.stl"));
    form.append("image", new File([PNG], "bracket.png", { type: "image/png" }));
    const uploaded = await fetch(`${b.origin}/upload-model`, {
      method: "POST",
      body: form,
      headers: { cookie: onB },
      redirect: "manual",
    });
    expect(uploaded.status).toBe(302);
    const modelPath = uploaded.headers.get("location")!;
    const id = Number(modelPath.split("/").pop());

    const page = await fetch(`${a.origin}${modelPath}`);
    expect(await page.text()).toContain(`/models/library/${id}/image`);
    const image = await fetch(`${a.origin}/models/library/${id}/image`);
    expect(image.headers.get("content-type")).toBe("image/png");
    // the picture B stored, re-encoded on its way in
    expect(await sharp(await bytes(image)).metadata()).toMatchObject({ format: "png", width: 1, height: 1 });

    // the comment limit (10 in 10 minutes) counts the comments posted through either process
    const onA = await signIn(a, customer.email);
    const comment = (app: AppProcess, cookie: string, n: number) =>
      fetch(`${app.origin}/api/models/${id}/comments`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ comment: `Comment number ${n}` }),
      });
    for (let n = 1; n <= 10; n++) expect((await comment(n % 2 ? a : b, n % 2 ? onA : onB, n)).status).toBe(201);
    for (const [app, cookie] of [
      [a, onA],
      [b, onB],
    ] as const) {
      const refused = await comment(app, cookie, 11);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });

  test("a weight-caching job whose worker process is killed mid-way is finished by the other @no-browser", async () => {
    const admin = await createPerson("Ada", "customer", database.db);
    await database.client.execute({ sql: "UPDATE users SET is_admin = 1 WHERE id = ?", args: [admin.id] });
    // catalogue downloads wait while this file exists: whichever worker claims the job stops on its first file
    writeFileSync(HOLD, "");
    const started = await fetch(`${a.origin}/api/thingiverse/calculate-weights`, {
      method: "POST",
      headers: { cookie: await signIn(a, admin.email), "content-type": "application/json" },
      body: JSON.stringify({ count: 3, page: 1 }),
    });
    expect(started.status).toBe(202);
    const { job } = (await started.json()) as { job: { id: number } };
    const task = async () =>
      (await database.client.execute({ sql: "SELECT * FROM background_tasks WHERE id = ?", args: [job.id] })).rows[0]!;

    await expect.poll(async () => (await task()).status, { timeout: 30_000 }).toBe("running");
    const first = appOfWorker(String((await task()).locked_by));
    const other = first === a ? b : a;
    await stop(first, "SIGKILL");
    rmSync(HOLD, { force: true });

    // the other process's worker takes the task once the dead worker's lease has run out, and finishes it
    await expect.poll(async () => (await task()).status, { timeout: 60_000 }).toBe("done");
    const done = await task();
    // the first worker is gone: the second attempt was the other's
    expect(first.server.signalCode).toBe("SIGKILL");
    expect(other.server.exitCode).toBeNull();
    expect(Number(done.attempts)).toBe(2);
    expect(JSON.parse(String(done.result))).toMatchObject({ stats: { calculated: 3, failed: 0 } });
    const weighed = await database.client.execute(
      "SELECT count(*) AS n FROM catalogue_models WHERE estimated_weight_grams IS NOT NULL",
    );
    expect(Number(weighed.rows[0]!.n)).toBeGreaterThanOrEqual(3);
  });
});
