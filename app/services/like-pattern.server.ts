// Searches that match typed words with LIKE: the catalogue's model search and the printer search.

/** A search word as a LIKE pattern's literal text (with ESCAPE '\'): its %, _ and \ match only themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
