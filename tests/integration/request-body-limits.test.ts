// Request bodies are counted as they stream and cut at their route's limit (server/request-body.ts),
// through the same Express → Remix request the server builds, with the real /contact action behind it.
import express from "express";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as contactAction } from "../../app/routes/contact";
import { getHoneypot } from "../../app/utils/honeypot.server";
import { bodyLimitFor } from "../../server/request-body";
import { createRemixRequest } from "../../server/remix-handler";

let baseUrl = "";
let server: ReturnType<ReturnType<typeof express>["listen"]>;
const actionOutcomes: string[] = [];

beforeAll(async () => {
  const app = express();
  app.post("/contact", async (req, res) => {
    const request = createRemixRequest(req, res);
    if (!request) return;
    try {
      const response = await contactAction({ request, params: {}, context: {} });
      actionOutcomes.push(`answered ${response instanceof Response ? response.status : "data"}`);
      if (!res.headersSent) res.status(response instanceof Response ? response.status : 200).end();
    } catch (error) {
      actionOutcomes.push(`threw ${error instanceof Error ? error.name : String(error)}`);
      if (!res.headersSent) res.status(500).end();
    }
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const BOUNDARY = "----printnear-test";

/**
 * Streams a multipart body with Transfer-Encoding: chunked and no Content-Length, 64 KB at a time,
 * until the server answers or `totalBytes` are sent; says what came back and how much was sent by then.
 */
function streamChunkedMultipart(path: string, totalBytes: number) {
  return new Promise<{ status: number; body: string; sentWhenAnswered: number }>((resolve, reject) => {
    let sent = 0;
    const req = httpRequest(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "transfer-encoding": "chunked" },
    });
    req.on("response", (res) => {
      const sentWhenAnswered = sent;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sentWhenAnswered }));
      res.on("error", reject);
    });
    req.on("error", () => {}); // the server closes the connection after its answer
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="message"\r\n\r\n`;
    req.write(head);
    sent += head.length;
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (sent < totalBytes && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!req.destroyed) req.end(`\r\n--${BOUNDARY}--\r\n`);
    };
    pump();
  });
}

describe("request bodies are bounded while they stream", () => {
  it("cuts a chunked multipart POST to /contact without Content-Length at the form limit with 413", async () => {
    const before = actionOutcomes.length;
    const limit = bodyLimitFor("/contact").bytes;
    const result = await streamChunkedMultipart("/contact", 256 * 1024 * 1024);
    expect(result.status).toBe(413);
    expect(result.body).toBe("Your message is too long to send. Shorten it and try again.");
    // refused long before the 256 MB were sent: only the limit plus what the sockets buffer got through
    expect(result.sentWhenAnswered).toBeLessThan(32 * 1024 * 1024);
    expect(limit).toBeLessThanOrEqual(64 * 1024);
    // the action's formData() read failed at the limit; it never saw the whole body
    await expect.poll(() => actionOutcomes.length).toBeGreaterThan(before);
    expect(actionOutcomes.at(-1)).not.toMatch(/^answered/);
  });

  it("refuses a declared Content-Length over the limit before reading any of it", async () => {
    const response = await fetch(`${baseUrl}/contact`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "message=" + "a".repeat(200 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toMatch(/too long/);
  });

  it("lets a form within the limit through to the action", async () => {
    const fields = new URLSearchParams({
      [getHoneypot().getInputProps().nameFieldName]: "",
      name: "Jo",
      email: "jo@example.test",
      subject: "A question",
      message: "Hello ".repeat(500),
    });
    const response = await fetch(`${baseUrl}/contact`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: fields,
      redirect: "manual",
    });
    expect(response.status).toBe(302);
  });
});

describe("the per-route limits", () => {
  it.each([
    ["/contact", 64 * 1024],
    ["/contact.data", 64 * 1024],
    ["/profile", 16 * 1024],
    ["/auth.data", 16 * 1024],
    ["/_root.data", 16 * 1024],
    ["/notifications", 16 * 1024],
    ["/models/library/3", 16 * 1024],
    ["/api/users/3", 256 * 1024],
    ["/upload", 60 * 1024 * 1024],
    ["/api/upload-design", 60 * 1024 * 1024],
    ["/printers/4/edit", 6 * 1024 * 1024],
    ["/admin/newsletter", 256 * 1024],
    ["/admin/newsletter.data", 256 * 1024],
    ["/messages", 16 * 1024],
  ])("%s allows %i bytes", (path, bytes) => {
    expect(bodyLimitFor(path).bytes).toBe(bytes);
  });
});
