// Runs before each test file: a test environment and a fresh copy of the migrated database.
import { copyFileSync, mkdirSync } from "node:fs";
import { randomBytes } from "node:crypto";

process.env.SESSION_SECRET ??= "test-session-secret";
mkdirSync("tests/.tmp", { recursive: true });
const file = `tests/.tmp/test-${process.pid}-${randomBytes(4).toString("hex")}.db`;
copyFileSync("tests/.tmp/template.db", file);
process.env.DATABASE_URL = `file:${file}`;
// files the code under test stores go beside the database copy, never into data/
process.env.UPLOADS_DIR = `${file}-uploads`;
