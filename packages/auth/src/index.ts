export { API_KEY_PREFIX, apiKeyMatches, apiKeyPrefix, type GeneratedApiKey, generateApiKey, hashApiKey } from "./api-key";
export { hashPassword, verifyPassword } from "./password";
