// Test support for the stored-state checks: input that the fast check must hand to the zod schema.

/** A deep copy whose objects have no prototype: the fast check passes such input to the zod schema. */
export function viaSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(viaSchema);
  if (typeof value !== "object" || value === null) return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) out[k] = viaSchema(v);
  return out;
}
