// Identities of users: the X handle rule (moving identities queues a recompute, see recompute.ts).

/** X usernames: 1-15 letters, digits or underscores (X's own rule), stored without the @. */
export const X_HANDLE_PATTERN = /^[A-Za-z0-9_]{1,15}$/;
