// Entry point of @pointwise/auth: API-key and password hashing primitives, and checks of signed tokens shared by the apps.
export { API_KEY_PREFIX, apiKeyMatches, apiKeyPrefix, type GeneratedApiKey, generateApiKey, hashApiKey } from "./api-key";
export { hashPassword, verifyPassword } from "./password";
export { decodedToken, invalidToken, verifiedClaims } from "./signed-token";
export { checkTokenBounds, type TokenBoundsRule, type TokenBoundsViolation, tokenBoundsError } from "./token-bounds";
export { decryptVoucherCode, encryptVoucherCode, hashVoucherCode, voucherKeyProblem } from "./voucher-code";
