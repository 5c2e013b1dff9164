// Keyset pages: the rows of the page, and a next cursor only when a row was left over.
import { keysetPage } from "./paging";

const rows = (...ids: number[]) => ids.map((id) => ({ id: String(id), n: id }));

describe("keysetPage", () => {
  it("keeps the first `limit` rows and points the next page before the last of them when one more row was read", () => {
    expect(keysetPage(rows(9, 7, 4, 2), 3)).toEqual({ page: rows(9, 7, 4), nextBefore: "4" });
  });

  it.each([
    ["exactly the limit", rows(9, 7, 4)],
    ["fewer rows than the limit", rows(9)],
    ["no rows", rows()],
  ])("has no next page when it read %s", (_name, read) => {
    expect(keysetPage(read, 3)).toEqual({ page: read, nextBefore: null });
  });
});
