// Tags of a library model: trimmed, at most 40 characters each, no case-insensitive repeats, at most 20.

export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 40;

/** "dragon, desk toy ,, dragon" → ["dragon", "desk toy"] */
export function parseTags(value: string | string[] | undefined | null): string[] {
  const parts = Array.isArray(value) ? value : (value ?? "").split(",");
  const tags = new Map<string, string>();
  for (const part of parts) {
    const tag = String(part).trim().slice(0, MAX_TAG_LENGTH);
    if (tag && !tags.has(tag.toLowerCase()) && tags.size < MAX_TAGS) tags.set(tag.toLowerCase(), tag);
  }
  return [...tags.values()];
}
