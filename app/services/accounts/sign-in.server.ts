// Accounts: sign-in and sign-up, shared by the page's form strategies (routes/auth.server.ts) and the JSON API.
// Each takes the client's address, which the per-address limits count.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { users, type User } from "../../../db/schema";
import { AuthFailure } from "~/domain/auth-failure";
import { UsernameSchema } from "~/domain/profile";
import { subscribe } from "~/services/newsletter.server";
import { getDb, isUniqueViolation } from "~/utils/db.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import {
  clearRateLimit,
  failureState,
  hitRateLimit,
  minutesText,
  recordFailure,
  refundRateLimit,
} from "~/utils/rate-limit.server";

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const ONE_HOUR = 60 * 60 * 1000;
export const LIMITS = {
  /** sign-in attempts one address may make that do not succeed (wrong, waiting or still running), whatever the e-mail */
  loginPerIp: 30,
  /** wrong passwords for one e-mail from one address before each next try must wait */
  freeFailuresPerEmailAndIp: 5,
  signupPerIp: 10,
  signupPerEmail: 5,
};

/**
 * The wait after `failures` wrong passwords for one e-mail from one address: none for the first
 * few, then 5 s, 10 s, 20 s ... up to 15 minutes. Counted per e-mail and address together, so a
 * stranger's guesses never lock the owner out: the owner signs in from their own address at once.
 */
export function signInDelaySeconds(failures: number): number {
  const over = failures - LIMITS.freeFailuresPerEmailAndIp;
  return over < 0 ? 0 : Math.min(15 * 60, 5 * 2 ** over);
}

/** Unknown e-mails are checked against this hash, so both answers take the time of one Argon2 check. */
let dummyHash: Promise<string> | undefined;
function dummyPasswordHash() {
  dummyHash ??= hashPassword(randomBytes(18).toString("base64url"));
  return dummyHash;
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

export const LoginSchema = z.object({
  email: z.string({ required_error: "Email is required" }).trim().email("Enter a valid email address").max(254),
  password: z.string({ required_error: "Password is required" }).min(1, "Password is required").max(128),
});

export const RegisterSchema = z.object({
  username: UsernameSchema,
  email: z.string({ required_error: "Email is required" }).trim().email("Enter a valid email address").max(254),
  password: z
    .string({ required_error: "Password is required" })
    .min(8, "Password must be at least 8 characters")
    .max(128, "Password must be at most 128 characters"),
  newsletterSubscribed: z.boolean().default(false),
});
async function limit(key: string, max: number, windowMs: number, what: string) {
  const result = await hitRateLimit(key, max, windowMs);
  if (!result.allowed) {
    throw new AuthFailure(
      "rate_limited",
      "Too Many Attempts",
      `Too many ${what} attempts. Please wait ${minutesText(result.retryAfterSeconds)} and try again.`,
      {},
      result.retryAfterSeconds,
    );
  }
  return result;
}

function flattenIssues(error: z.ZodError) {
  return error.flatten().fieldErrors as Record<string, string[]>;
}

export async function loginWithPassword(input: { email?: unknown; password?: unknown }, clientIp: string): Promise<User> {
  const email = text(input.email).toLowerCase();
  const password = typeof input.password === "string" ? input.password : "";
  if (!email || !password) throw new AuthFailure("invalid", "Missing Information", "Please fill in all fields");
  const parsed = LoginSchema.safeParse({ email, password });
  if (!parsed.success)
    throw new AuthFailure("invalid", "Login Failed", "Enter a valid email address", flattenIssues(parsed.error));

  // counted before the check, so a burst of guesses can't all pass; a correct sign-in gives its count back
  const addressKey = `login:ip:${clientIp}`;
  const addressAttempt = await limit(addressKey, LIMITS.loginPerIp, FIFTEEN_MINUTES, "sign-in");
  const failuresKey = `login:failures:${email}:${clientIp}`;
  const failures = await failureState(failuresKey, ONE_HOUR);
  const waitSeconds = Math.ceil((failures.lastAt + signInDelaySeconds(failures.count) * 1000 - Date.now()) / 1000);
  if (failures.count > 0 && waitSeconds > 0) {
    throw new AuthFailure(
      "rate_limited",
      "Too Many Attempts",
      `Too many sign-in attempts. Please wait ${waitText(waitSeconds)} and try again.`,
      {},
      waitSeconds,
    );
  }

  const db = await getDb();
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  // an unknown e-mail costs the same Argon2 check as a known one, so timing does not tell them apart
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !valid) {
    await recordFailure(failuresKey, ONE_HOUR);
    throw new AuthFailure("unauthenticated", "Login Failed", "Invalid email or password");
  }
  if (failures.count > 0) await clearRateLimit(failuresKey);
  // many people behind one address (an office, a campus) sign in freely: only failures use up its limit
  await refundRateLimit(addressKey, addressAttempt);
  return user;
}

function waitText(seconds: number) {
  return seconds < 60 ? `${seconds} second${seconds === 1 ? "" : "s"}` : minutesText(seconds);
}

export async function registerAccount(input: Record<string, unknown>, clientIp: string): Promise<User> {
  if (!text(input.username) || !text(input.email) || !input.password) {
    throw new AuthFailure("invalid", "Missing Information", "Please fill in all required fields");
  }
  const parsed = RegisterSchema.safeParse({
    username: input.username,
    email: input.email,
    password: input.password,
    newsletterSubscribed:
      input.newsletterSubscribed === true || input.newsletterSubscribed === "on" || input.newsletterSubscribed === "true",
  });
  if (!parsed.success) {
    const fieldErrors = flattenIssues(parsed.error);
    const first = Object.values(fieldErrors).flat()[0] ?? "Please check the form";
    throw new AuthFailure("invalid", "Registration Failed", first, fieldErrors);
  }
  const { username, password, newsletterSubscribed } = parsed.data;
  const email = parsed.data.email.toLowerCase();

  await limit(`signup:ip:${clientIp}`, LIMITS.signupPerIp, ONE_HOUR, "sign-up");
  await limit(`signup:email:${email}`, LIMITS.signupPerEmail, ONE_HOUR, "sign-up");

  const db = await getDb();
  const [emailTaken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (emailTaken) {
    throw new AuthFailure("conflict", "Registration Failed", "An account with this email already exists", {
      email: ["An account with this email already exists"],
    });
  }
  const [nameTaken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  if (nameTaken) {
    throw new AuthFailure("conflict", "Registration Failed", "That username is already taken", {
      username: ["That username is already taken"],
    });
  }

  const passwordHash = await hashPassword(password);
  let user: User;
  try {
    [user] = await db.insert(users).values({ username, email, passwordHash, newsletterSubscribed }).returning();
  } catch (error) {
    // two sign-ups racing for the same e-mail or username: the unique index decides
    if (isUniqueViolation(error))
      throw new AuthFailure("conflict", "Registration Failed", "An account with this email or username already exists");
    throw error;
  }
  // double opt-in: the checkbox sends a confirmation e-mail; campaigns go to confirmed addresses only
  if (newsletterSubscribed) {
    await subscribe({ email, userId: user.id, interest: user.userType === "customer" ? "customer" : "printer_owner" });
  }
  return user;
}
