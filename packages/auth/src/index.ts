// Entry point of @pointwise/auth: API-key and password hashing primitives shared by the apps.
export { API_KEY_PREFIX, apiKeyMatches, apiKeyPrefix, type GeneratedApiKey, generateApiKey, hashApiKey } from "./api-key";
export { hashPassword, verifyPassword } from "./password";
