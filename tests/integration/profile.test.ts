import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { users } from "../../db/schema";
import { NAME_ONE_LINE_MESSAGE } from "~/domain/person-name";
import { getDb } from "~/utils/db.server";
import { action as profileAction, loader as profilePage } from "~/routes/profile";
import { action as patchUser } from "~/routes/api.users.$id";
import { args, createTestUser, getRequest, jsonRequest, run, sessionCookieFor } from "../setup/requests";

async function stored(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

function profilePost(cookie: string, fields: Array<[string, string]>) {
  const body = new FormData();
  for (const [key, value] of fields) body.append(key, value);
  return new Request("http://localhost:3000/profile", { method: "POST", body, headers: { cookie } });
}

describe("/profile", () => {
  test("saves names, a preset avatar, the ZIP and per-kind e-mail settings", async () => {
    const user = await createTestUser({ userType: "printer_owner" });
    const cookie = await sessionCookieFor(user.id);
    const page = (await (await run(() => profilePage(args(getRequest("/profile", cookie))))).json()) as {
      profile: { emailOn: string[]; userType: string };
    };
    expect(page.profile.emailOn).toEqual(["order_request", "order_update", "payout", "message"]);

    const saved = await run(() =>
      profileAction(
        args(
          profilePost(cookie, [
            ["username", user.username],
            ["firstName", " Pat "],
            ["lastName", "Lee"],
            ["profileImageUrl", "/avatars/avatar-3.svg"],
            ["zipCode", "80525"],
            ["emailOn", "order_request"],
            ["emailOn", "payout"],
          ]),
        ),
      ),
    );
    expect(saved.status).toBe(302);
    expect(await stored(user.id)).toMatchObject({
      firstName: "Pat",
      lastName: "Lee",
      profileImageUrl: "/avatars/avatar-3.svg",
      zipCode: "80525",
      emailOff: ["order_update", "message"],
    });

    // none checked turns every e-mail off
    await run(() => profileAction(args(profilePost(cookie, [["username", user.username]]))));
    expect((await stored(user.id)).emailOff).toEqual(["order_request", "order_update", "payout", "message"]);
  });

  test("only a preset avatar is taken; a refused change keeps the old values", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const refused = await run(() =>
      profileAction(
        args(
          profilePost(cookie, [
            ["username", user.username],
            ["profileImageUrl", "https://evil.example/x.png"],
          ]),
        ),
      ),
    );
    expect(refused.status).toBe(400);
    expect((await stored(user.id)).profileImageUrl).toBeNull();
  });

  test("a name with a line break or a control character is refused with a message on its field", async () => {
    const user = await createTestUser({ firstName: "Pat", lastName: "Lee" });
    const cookie = await sessionCookieFor(user.id);
    for (const [field, value] of [
      ["firstName", "Pat\r\n\r\nSign in at https://evil.example"],
      ["lastName", "Lee\u0000"],
      ["lastName", "Lee\u2028Printnear Support"],
    ]) {
      const refused = await run(() =>
        profileAction(
          args(
            profilePost(cookie, [
              ["username", user.username],
              [field, value],
            ]),
          ),
        ),
      );
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { result: { error: Record<string, string[]> } }).result.error[field]).toEqual([
        NAME_ONE_LINE_MESSAGE,
      ]);
    }
    expect(await stored(user.id)).toMatchObject({ firstName: "Pat", lastName: "Lee" });
  });

  test("PATCH /api/users/{id}: own account only, profile fields and e-mail switches", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const forbidden = await run(() =>
      patchUser(
        args(jsonRequest(`/api/users/${other.id}`, { firstName: "X" }, { cookie, method: "PATCH" }), { id: String(other.id) }),
      ),
    );
    expect(forbidden.status).toBe(403);
    const ok = await run(() =>
      patchUser(
        args(
          jsonRequest(
            `/api/users/${user.id}`,
            { firstName: "Robin", profileImageUrl: "/avatars/avatar-8.svg", emailSettings: { message: false } },
            { cookie, method: "PATCH" },
          ),
          { id: String(user.id) },
        ),
      ),
    );
    expect(ok.status).toBe(200);
    expect(await stored(user.id)).toMatchObject({
      firstName: "Robin",
      profileImageUrl: "/avatars/avatar-8.svg",
      emailOff: ["message"],
    });
    const badAvatar = await run(() =>
      patchUser(
        args(jsonRequest(`/api/users/${user.id}`, { profileImageUrl: "/x.svg" }, { cookie, method: "PATCH" }), {
          id: String(user.id),
        }),
      ),
    );
    expect(badAvatar.status).toBe(400);
    const badName = await run(() =>
      patchUser(
        args(jsonRequest(`/api/users/${user.id}`, { lastName: "Lee\nBcc: everyone" }, { cookie, method: "PATCH" }), {
          id: String(user.id),
        }),
      ),
    );
    expect(badName.status).toBe(400);
    expect(await badName.json()).toMatchObject({ message: NAME_ONE_LINE_MESSAGE, errors: { lastName: [NAME_ONE_LINE_MESSAGE] } });
    expect((await stored(user.id)).lastName).not.toContain("Bcc");
  });
});
