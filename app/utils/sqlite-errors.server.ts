// What a SQLite error means for the server: its result codes down the cause chain (drizzle wraps libSQL's
// errors), and the kinds the server answers differently (a duplicate, a held write lock, a broken connection).

/** SQLite's result codes of an error (extended first), down the cause chain: drizzle wraps libSQL's errors. */
export function sqliteCodesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    for (const field of ["extendedCode", "code"] as const) {
      const code = (current as Record<string, unknown>)[field];
      if (typeof code === "string" && code.startsWith("SQLITE_")) codes.push(code);
    }
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** A UNIQUE constraint refused the write (a duplicate won a race with a check-then-insert). */
export function isUniqueViolation(error: unknown): boolean {
  return sqliteCodesOf(error).some((code) => code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY");
}

/** Another connection holds the write lock (past the busy timeout, or a lock that cannot wait). */
export function isBusyError(error: unknown): boolean {
  return sqliteCodesOf(error).some((code) => code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** The database cannot take a write now: a held write lock, or a read-only file or connection. Not a bug: 503. */
export function isWriteUnavailable(error: unknown): boolean {
  return isBusyError(error) || sqliteCodesOf(error).some((code) => code.startsWith("SQLITE_READONLY"));
}

/**
 * The database cannot answer now for a reason outside the app: a held write lock, a read-only file, a full disk
 * (SQLITE_FULL), an I/O error (a -wal or -shm that cannot be written or grown), a file that cannot be opened,
 * or a -shm fault found before it crashed the process (database-files.server.ts). Not a bug: 503 with Retry-After.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isWriteUnavailable(error)) return true;
  if (sqliteCodesOf(error).some((code) => /^SQLITE_(FULL|IOERR|CANTOPEN)/.test(code))) return true;
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === "DATABASE_FILE_FAULT") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The connection itself is broken or stuck read-only: a fresh one is needed. */
export function needsReconnect(error: unknown): boolean {
  if (sqliteCodesOf(error).some((code) => /^SQLITE_(READONLY|IOERR|CANTOPEN|NOTADB)/.test(code))) return true;
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      code === "CLIENT_CLOSED" ||
      (current instanceof Error && /client is closed|connection is not open/i.test(current.message))
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
