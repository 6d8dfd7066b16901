// Named points between two writes that must both happen (a status and its money, a claim and its
// transfer). Tests arm one to throw there, as a crash would; unarmed, a point costs one null check.

let armed: Set<string> | null = null;

/** Throws at this point when a test armed it (once), like a process dying between two writes. */
export function faultPoint(name: string): void {
  if (armed?.delete(name)) throw new Error(`fault injected at ${name}`);
}

/** Tests: the next pass through this point throws. */
export function armFault(name: string): void {
  (armed ??= new Set()).add(name);
}

/** Tests: no point throws any more. */
export function disarmFaults(): void {
  armed = null;
}
