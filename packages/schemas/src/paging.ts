// Keyset paging of lists read newest first: one row more than the page is read, and its last id is the next cursor.

/**
 * The page of at most `limit` rows out of `rows`, read ordered by id descending with `LIMIT limit + 1`, and the
 * `before` cursor of the next page: the page's last id when a row was left over, otherwise null (the last page).
 */
export function keysetPage<T extends { id: string }>(rows: readonly T[], limit: number): { page: T[]; nextBefore: string | null } {
  const page = rows.slice(0, limit);
  return { page, nextBefore: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}
