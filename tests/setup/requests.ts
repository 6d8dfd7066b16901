// Helpers for integration tests: real users and sessions in the test's database, real Requests.
import { users } from "../../db/schema";
import { getDb } from "../../app/utils/db.server";
import { hashPassword } from "../../app/utils/password.server";
import { createUserSession } from "../../app/utils/session.server";
import { getToast } from "../../app/utils/toast.server";

let counter = 0;

export async function createTestUser(overrides: Partial<typeof users.$inferInsert> = {}) {
  counter += 1;
  const db = await getDb();
  const [user] = await db
    .insert(users)
    .values({
      email: `user${counter}-${Date.now()}@example.test`,
      username: `user${counter}_${Date.now()}`,
      passwordHash: await hashPassword("correct horse battery"),
      firstName: "Test",
      lastName: `User${counter}`,
      ...overrides,
    })
    .returning();
  return user;
}

/** The Cookie header of a fresh session for this user. */
export async function sessionCookieFor(userId: number): Promise<string> {
  const setCookie = await createUserSession(userId);
  return setCookie.split(";")[0];
}

export function formRequest(url: string, fields: Record<string, string | Blob>, init: { cookie?: string; method?: string } = {}) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return new Request(new URL(url, "http://localhost:3000"), {
    method: init.method ?? "POST",
    body,
    headers: init.cookie ? { cookie: init.cookie } : {},
  });
}

export function jsonRequest(url: string, body: unknown, init: { cookie?: string; method?: string } = {}) {
  return new Request(new URL(url, "http://localhost:3000"), {
    method: init.method ?? "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", ...(init.cookie ? { cookie: init.cookie } : {}) },
  });
}

export function getRequest(url: string, cookie?: string) {
  return new Request(new URL(url, "http://localhost:3000"), { headers: cookie ? { cookie } : {} });
}

/** Route function args as Remix passes them. */
export function args(request: Request, params: Record<string, string> = {}) {
  return { request, params, context: {} };
}

/** A loader's or action's answer as a Response, however the route gave it (thrown, data(), plain object). */
export async function run(fn: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await fn();
    if (result instanceof Response) return result;
    const value = result as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (value?.type === "DataWithResponseInit") {
      return new Response(JSON.stringify(value.data), { ...(value.init ?? {}), headers: value.init?.headers });
    }
    return Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/**
 * A multipart POST whose file part (`fileField`, `fileBytes` of spaces) is generated chunk by chunk as the
 * server reads it, followed by `fieldsAfter`: the test never holds the file, so memory checks measure the server.
 */
export function streamedMultipart(
  url: string,
  fileField: string,
  fileBytes: number,
  fieldsAfter: Record<string, string> = {},
  init: { cookie?: string } = {},
): Request {
  const boundary = "----printnear-stream-boundary";
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="big.stl"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = encoder.encode(
    `\r\n${Object.entries(fieldsAfter)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join("")}--${boundary}--\r\n`,
  );
  let sent = -1;
  const chunk = 256 * 1024;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent < 0) {
        controller.enqueue(head);
        sent = 0;
      } else if (sent < fileBytes) {
        const size = Math.min(chunk, fileBytes - sent);
        controller.enqueue(new Uint8Array(size).fill(0x20));
        sent += size;
      } else {
        controller.enqueue(tail);
        controller.close();
      }
    },
  });
  const headers: Record<string, string> = { "content-type": `multipart/form-data; boundary=${boundary}` };
  if (init.cookie) headers.cookie = init.cookie;
  return new Request(url, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** The toast an answer flashed through its Set-Cookie headers, as the next page would read it. */
export async function flashedToast(response: Response) {
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return (await getToast(new Request("http://localhost/", { headers: { cookie } }))).toast;
}

/** The messages of a refused page post, answered with conform's `{ result }`: the form's and each field's, in order. */
export async function refusalMessages(response: Response): Promise<string[]> {
  const { result } = (await response.json()) as { result?: { error?: Record<string, string[] | null> } };
  return Object.values(result?.error ?? {}).flatMap((messages) => messages ?? []);
}
