import { defineConfig } from "drizzle-kit";

// drizzle-kit writes reviewed SQL migrations into drizzle/; db/migrate.ts applies them.
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./drizzle",
});
