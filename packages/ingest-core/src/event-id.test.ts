// Event ids: newEventId's UUIDv7 layout (RFC 9562), time order and uniqueness; eventIdForKey's UUIDv8 from SHA-256.
import { eventIdForKey, newEventId } from "./event-id";

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

describe("eventIdForKey", () => {
  // Digests from `printf 'pointwise-event\0<campaign>\0<key>' | sha256sum`; the id is its first 16 bytes with
  // byte 6 = (b & 0x0f) | 0x80 (version 8) and byte 8 = (b & 0x3f) | 0x80 (RFC 9562 variant).
  it("is the first 16 bytes of SHA-256 over the campaign and the key, stamped version 8 and the RFC 9562 variant", () => {
    // 5fcf37e3 4fcd 2ac1 8530 f3b341885dfd...: 2a -> 8a, 85 -> 85.
    expect(eventIdForKey("ab12-cd34", "order-1")).toBe("5fcf37e3-4fcd-8ac1-8530-f3b341885dfd");
    // b36d4463 ac3e d710 7708 79356ca9d195...: d7 -> 87, 77 -> b7.
    expect(eventIdForKey("ab12-cd34", "order-2")).toBe("b36d4463-ac3e-8710-b708-79356ca9d195");
  });

  it("names another event for the same key in another campaign", () => {
    // 715db958 906a 4bb2 9b77 2ee33505647c...: 4b -> 8b, 9b -> 9b.
    expect(eventIdForKey("zz99-yy88", "order-1")).toBe("715db958-906a-8bb2-9b77-2ee33505647c");
  });
});
