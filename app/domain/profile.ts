// Profile rules, shared by the browser (early checks) and the server (the real ones).
import { z } from "zod";
import { NOTIFICATION_KINDS } from "./notification-kinds";
import { PersonNameSchema } from "./person-name";

export const USERNAME_TAKEN = "That username is already taken";

export const PRESET_AVATARS = Array.from({ length: 8 }, (_, i) => `/avatars/avatar-${i + 1}.svg`);

/** The one username rule, for sign-up and the profile alike. */
export const UsernameSchema = z
  .string({ required_error: "Username is required" })
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(30, "Username must be at most 30 characters")
  .regex(/^[A-Za-z0-9_.-]+$/, "Username may use letters, numbers, dots, dashes and underscores");

export const ProfileSchema = z.object({
  username: UsernameSchema,
  firstName: PersonNameSchema,
  lastName: PersonNameSchema,
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
  /** the kinds whose e-mail stays on: one checkbox each, so none checked is all off */
  emailOn: z.array(z.enum(NOTIFICATION_KINDS)).optional(),
});

/** The stored setting (kinds turned off) from the checked boxes. */
export function emailOffFrom(emailOn: readonly string[] | undefined): string[] {
  return NOTIFICATION_KINDS.filter((kind) => !(emailOn ?? []).includes(kind));
}
