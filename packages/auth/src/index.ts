export { API_KEY_PREFIX, apiKeyMatches, apiKeyPrefix, generateApiKey, hashApiKey, type GeneratedApiKey } from "./api-key";
export { hashPassword, verifyPassword } from "./password";
