// Column helpers every schema file shares: times are UTC epoch milliseconds, booleans 0/1 integers.
import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

export const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
export const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(now);
export const updatedAt = () => integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now);
export const stamp = (name: string) => integer(name, { mode: "timestamp_ms" });
export const bool = (name: string) => integer(name, { mode: "boolean" });
/** CHECK (column IN (...)) for an enum column. */
export const oneOf = (column: string, values: readonly string[]) =>
  sql.raw(`"${column}" IN (${values.map((v) => `'${v}'`).join(", ")})`);
