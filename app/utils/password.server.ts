import { hash, verify } from "@node-rs/argon2";

// Argon2id with 19 MiB and 2 passes (OWASP's first recommended setting).
const options = { algorithm: 2 /* Argon2id */ as const, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
