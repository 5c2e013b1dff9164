// admin-api's default bad-word list: where BAD_WORDS_FILE points unless set.
import path from "node:path";
import { loadBadWords } from "@pointwise/config";
import { loadEnv } from "./env";

const required = {
  DATABASE_URL: "postgres://127.0.0.1:5432/x",
  NATS_URL: "nats://127.0.0.1:4222",
  ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
};

describe("BAD_WORDS_FILE", () => {
  it("defaults to the read API's shipped list, the one boards hide names by", () => {
    const env = loadEnv(required);
    expect(path.resolve(env.BAD_WORDS_FILE)).toBe(path.resolve(__dirname, "..", "..", "read-api", "data", "bad-words.txt"));
    // The shipped file's first words (apps/read-api/data/bad-words.txt), comments left out.
    expect(loadBadWords(env.BAD_WORDS_FILE).slice(0, 5)).toEqual(["admin", "moderator", "official", "support", "pointwise"]);
  });
});
