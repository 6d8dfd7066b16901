// Profile changes shared by /profile and PATCH /api/users/{id}: one set of rules.
import { and, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { USER_TYPES, users, type User } from "../../db/schema";
import { getDb } from "./db.server";

export const PRESET_AVATARS = Array.from({ length: 8 }, (_, i) => `/avatars/avatar-${i + 1}.svg`);

const optionalName = z
  .string()
  .trim()
  .max(50, "At most 50 characters")
  .optional()
  .transform((v) => (v ? v : null));

export const ProfileSchema = z.object({
  username: z
    .string({ required_error: "Username is required" })
    .trim()
    .min(3, "Username must be at least 3 characters")
    .max(30, "Username must be at most 30 characters")
    .regex(/^[A-Za-z0-9_.-]+$/, "Username may use letters, numbers, dots, dashes and underscores"),
  firstName: optionalName,
  lastName: optionalName,
  profileImageUrl: z
    .string()
    .optional()
    .refine((v) => !v || PRESET_AVATARS.includes(v), "Choose one of the preset avatars")
    .transform((v) => v || null),
  zipCode: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^\d{5}$/.test(v), "ZIP must be 5 digits")
    .transform((v) => v || null),
});

export const ApiUserPatchSchema = ProfileSchema.partial().extend({ userType: z.enum(USER_TYPES).optional() });

/** Applies a validated change; a taken username answers as a field error. */
export async function updateUser(
  userId: number,
  change: Partial<Pick<User, "username" | "firstName" | "lastName" | "profileImageUrl" | "zipCode" | "userType">>,
): Promise<{ user: User } | { fieldErrors: Record<string, string[]> }> {
  const db = await getDb();
  if (change.username) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = ${change.username.toLowerCase()}`, ne(users.id, userId)))
      .limit(1);
    if (taken) return { fieldErrors: { username: ["That username is already taken"] } };
  }
  const [user] = await db
    .update(users)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return { user };
}
