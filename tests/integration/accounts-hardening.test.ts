// Accounts under attack: sign-in timing that does not tell known e-mails from unknown ones,
// racing sign-ups that answer 409, and error logs without hashes, e-mails or parameters.
import * as argon2 from "@node-rs/argon2";
import { DrizzleQueryError } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { action as registerApi } from "../../app/routes/api.register";
import { handleError } from "../../app/entry.server";
import { loginWithPassword } from "../../app/services/accounts/sign-in.server";
import { CLIENT_IP_HEADER } from "../../app/utils/rate-limit.server";
import { describeError } from "../../app/utils/log-redaction";
import { args, createTestUser, jsonRequest } from "../setup/requests";

// Argon2 itself runs; the spy only counts what it is asked to verify.
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const real = await importOriginal<typeof import("@node-rs/argon2")>();
  return { ...real, verify: vi.fn(real.verify) };
});

function fromIp(request: Request, ip: string) {
  request.headers.set(CLIENT_IP_HEADER, ip);
  return request;
}

async function signIn(email: string, ip: string) {
  await loginWithPassword({ email, password: "not the password" }, ip).catch(() => {});
}

afterEach(() => vi.restoreAllMocks());

describe("sign-in timing", () => {
  it("runs the same Argon2 check for an unknown e-mail as for a known one (a dummy hash with the same cost)", async () => {
    const user = await createTestUser();
    const verify = vi.mocked(argon2.verify);
    verify.mockClear();
    await signIn(user.email, "192.0.2.1");
    await signIn("nobody@example.test", "192.0.2.2");
    // one Argon2 verification each, against hashes of the same algorithm and cost parameters
    expect(verify).toHaveBeenCalledTimes(2);
    const params = (hash: string) => hash.split("$").slice(1, 4).join("$");
    const [knownHash, unknownHash] = verify.mock.calls.map((call) => String(call[0]));
    expect(unknownHash).not.toBe(knownHash);
    expect(params(unknownHash)).toBe(params(knownHash));
    expect(params(knownHash)).toMatch(/^argon2id\$v=19\$m=\d+,t=\d+,p=\d+$/);
  });
});

describe("racing sign-ups", () => {
  it("answers 409 to every loser of twenty parallel sign-ups with one username, never 500", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        registerApi(
          args(
            fromIp(
              jsonRequest("/api/register", {
                username: "same_name",
                email: `racer${i}@example.test`,
                password: "long enough pw",
              }),
              `198.51.100.${i + 1}`,
            ),
          ),
        ),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(errors).not.toHaveBeenCalled();
  });
});

describe("error logs carry no secrets or user content", () => {
  const hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo";
  const failed = new DrizzleQueryError(
    'insert into "users" ("username", "email", "password_hash") values (?, ?, ?)',
    ["same_name", "racer1@example.test", hash],
    Object.assign(new Error("SQLITE_CONSTRAINT_UNIQUE: UNIQUE constraint failed: users.username"), {
      code: "SQLITE_CONSTRAINT_UNIQUE",
    }),
  );

  it("logs a failed query with its statement and cause, without its parameters", () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...values: unknown[]) => void lines.push(values.map(String).join(" ")));
    handleError(failed, { request: new Request("http://localhost/auth?email=jo@example.test&token=abc") });
    const logged = lines.join("\n");
    expect(logged).toContain('insert into "users"');
    expect(logged).toContain("UNIQUE constraint failed: users.username");
    expect(logged).not.toContain("argon2");
    expect(logged).not.toContain("racer1@example.test");
    expect(logged).not.toContain("same_name");
  });

  it("takes query strings, e-mails, session cookies and hashes out of any error text", () => {
    const text = describeError(
      new Error(`fetch https://api.example.test/search?q=secret failed for jo@example.test pn_session=abc123 ${hash}`),
    );
    expect(text).toContain("https://api.example.test/search?[redacted]");
    for (const secret of ["q=secret", "jo@example.test", "abc123", "argon2"]) expect(text).not.toContain(secret);
  });
});
