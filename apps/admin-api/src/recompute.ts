// The recompute queue of identity moves, campaign dates and exclusions lives in @pointwise/db, shared with portal-api.
export { queueRecompute, type RecomputeReason } from "@pointwise/db";
