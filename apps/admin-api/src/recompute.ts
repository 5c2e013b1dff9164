// The recompute queue of identity moves and campaign dates lives in @pointwise/db, shared with portal-api.
export { queueRecompute, type RecomputeReason } from "@pointwise/db";
