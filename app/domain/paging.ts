// Long lists of a person's own orders, a page at a time: their history grows without end, a page does not.

/** Orders per page of a customer's dashboard tab or an owner's tracking tab. */
export const ORDER_PAGE_SIZE = 25;

/** ?page= of a list of `total` items: past the last page, the last; anything but a page number, the first. */
export function listPage(asked: string | null, total: number, size = ORDER_PAGE_SIZE) {
  const pageCount = Math.max(1, Math.ceil(total / size));
  const whole = Math.floor(Number(asked));
  const page = Number.isFinite(whole) && whole >= 1 ? Math.min(pageCount, whole) : 1;
  return { page, pageCount, offset: (page - 1) * size, limit: size };
}
