// Profile changes shared by /profile and PATCH /api/users/{id}: one set of rules.
import { and, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { printers, users, type User } from "../../../db/schema";
import { AppError } from "~/domain/app-error";
import { NOTIFICATION_KINDS, type NotificationKind } from "~/domain/notification-kinds";
import { ProfileSchema, USERNAME_TAKEN } from "~/domain/profile";
import { USER_TYPE_REFUSED, USER_TYPES, userTypesAllowed, type UserType } from "~/domain/users";
import { limitWrite } from "~/services/write-limits.server";
import { getDb } from "~/utils/db.server";

export const ApiUserPatchSchema = ProfileSchema.omit({ emailOn: true })
  .partial()
  .extend({
    userType: z.enum(USER_TYPES).optional(),
    /** per-kind e-mail switches, e.g. { "message": false }; kinds left out keep their setting */
    emailSettings: z.record(z.enum(NOTIFICATION_KINDS), z.boolean()).optional(),
  });

/** The stored e-mail setting after a PATCH's switches. */
export function emailOffAfter(current: readonly string[], switches: Partial<Record<NotificationKind, boolean>>): string[] {
  return NOTIFICATION_KINDS.filter((kind) => (kind in switches ? switches[kind] === false : current.includes(kind)));
}

/**
 * Refuses a userType the account may not choose for itself (app/domain/users.ts): a
 * customer cannot make itself a printer owner without a printer, nor an owner hide its printers.
 */
export async function checkUserTypeChange(user: User, requested: UserType | undefined) {
  if (requested === undefined || requested === user.userType) return;
  const db = await getDb();
  const [printer] = await db.select({ id: printers.id }).from(printers).where(eq(printers.ownerId, user.id)).limit(1);
  if (!userTypesAllowed(Boolean(printer)).includes(requested)) {
    throw new AppError("forbidden", USER_TYPE_REFUSED, { field: "userType" });
  }
}

/**
 * Applies a validated change, counted against the profile write limit (AppError "rate_limited" past it);
 * a taken username is AppError("conflict") on the "username" field.
 */
export async function updateUser(
  userId: number,
  change: Partial<Pick<User, "username" | "firstName" | "lastName" | "profileImageUrl" | "zipCode" | "userType" | "emailOff">>,
): Promise<User> {
  await limitWrite(userId, "profile");
  const db = await getDb();
  if (change.username) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = ${change.username.toLowerCase()}`, ne(users.id, userId)))
      .limit(1);
    if (taken) throw new AppError("conflict", USERNAME_TAKEN, { field: "username" });
  }
  const [user] = await db
    .update(users)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return user!;
}
