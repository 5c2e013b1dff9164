// newEventId: UUIDv7 layout (RFC 9562), the Unix-millisecond prefix, time order and uniqueness across pool refills.
import { newEventId } from "./event-id";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The 48-bit millisecond timestamp of a UUIDv7: its first 12 hex digits. */
const millisOf = (id: string) => Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);

describe("newEventId", () => {
  it("writes version 7 and the RFC 9562 variant into every id, whatever the random bytes were", () => {
    // 3000 ids draw from three fills of the 1024-id pool, so every random byte value meets the masks.
    const ids = Array.from({ length: 3000 }, () => newEventId(1_700_000_000_000));
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect(new Set(ids.map((id) => id.charAt(19))).size).toBe(4);
    // The masks keep the other bits of those bytes random: the digit after the 7 takes all 16 values.
    expect(new Set(ids.map((id) => id.charAt(15))).size).toBe(16);
    expect(new Set(ids.map((id) => id.charAt(20))).size).toBe(16);
  });

  it("starts with the given Unix milliseconds as 48 bits: 1700000000000 is 018bcfe56800", () => {
    const id = newEventId(1_700_000_000_000);
    expect(id.slice(0, 13)).toBe("018bcfe5-6800");
    expect(millisOf(id)).toBe(1_700_000_000_000);
    expect(millisOf(newEventId(2 ** 48 - 1))).toBe(2 ** 48 - 1);
  });

  it("takes the current time by default", () => {
    const before = Date.now();
    const id = newEventId();
    expect(millisOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it("sorts ids of later milliseconds after earlier ones, as strings", () => {
    const ids = [5, 1, 4, 2, 3].map((ms) => newEventId(1_700_000_000_000 + ms));
    expect([...ids].sort().map(millisOf)).toEqual([1, 2, 3, 4, 5].map((ms) => 1_700_000_000_000 + ms));
  });

  it("never repeats an id in the same millisecond, across refills of the random pool", () => {
    const ids = Array.from({ length: 5000 }, () => newEventId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(5000);
    // 74 random bits per id: two equal random parts among 5000 would be a broken pool, not chance.
    expect(new Set(ids.map((id) => id.slice(15))).size).toBe(5000);
  });
});
