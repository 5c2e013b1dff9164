// The registry of adapter definitions a service can run, looked up by id from the config.
import { ConfigError } from "@pointwise/errors";
import type { AdapterDefinition } from "./adapter";

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const ADAPTER_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The adapters a service can run, by id; an adapter package is added by registering its definition here. */
export class AdapterRegistry {
  readonly #adapters = new Map<string, AdapterDefinition>();

  constructor(definitions: readonly AdapterDefinition[] = []) {
    for (const definition of definitions) this.register(definition);
  }

  /** Adds an adapter; rejects a malformed id or version and a duplicate id. */
  register(definition: AdapterDefinition): void {
    if (!ADAPTER_ID.test(definition.id)) throw new ConfigError(`adapter id must be lowercase letters, digits or '-': ${definition.id}`);
    if (!SEMVER.test(definition.version)) throw new ConfigError(`adapter ${definition.id} version must be a semver string: ${definition.version}`);
    if (this.#adapters.has(definition.id)) throw new ConfigError(`adapter ${definition.id} is already registered`);
    this.#adapters.set(definition.id, definition);
  }

  /** The definition registered under `id`, if any. */
  get(id: string): AdapterDefinition | undefined {
    return this.#adapters.get(id);
  }

  /** Registered ids, sorted, for error messages and listings. */
  ids(): string[] {
    return [...this.#adapters.keys()].sort();
  }
}

/** True when `version` is a semver 2.0 string. */
export function isSemver(version: string): boolean {
  return SEMVER.test(version);
}
