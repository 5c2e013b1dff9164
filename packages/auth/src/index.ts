// Entry point of @pointwise/auth: API-key and password hashing primitives and token bounds shared by the apps.
export { API_KEY_PREFIX, apiKeyMatches, apiKeyPrefix, type GeneratedApiKey, generateApiKey, hashApiKey } from "./api-key";
export { hashPassword, verifyPassword } from "./password";
export { checkTokenBounds, type TokenBoundsRule, type TokenBoundsViolation } from "./token-bounds";
export { decryptVoucherCode, encryptVoucherCode, hashVoucherCode, voucherKeyProblem } from "./voucher-code";
