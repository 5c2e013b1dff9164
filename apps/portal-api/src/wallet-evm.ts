// Sign-In with Ethereum (EIP-4361): parses the message, checks domain, chain, times and signature (EOA or EIP-1271).
import { AuthError, RetryableError, ValidationError } from "@pointwise/errors";
import { rpcFailure } from "@pointwise/runtime";
import { JsonRpcProvider, Network, verifyMessage } from "ethers";
import { SiweMessage } from "siwe";

/** What a checked message proves: this address signed it, with this nonce. */
export interface SignedWallet {
  address: string;
  nonce: string;
}

/** What an EVM sign-in message must agree with. */
export interface EvmCheckOptions {
  domain: string;
  chainIds: readonly number[];
  /** The longest a message may live, from its Issued At to its Expiration Time (seconds). */
  maxLifetimeS: number;
  /** The chain contract wallets are checked on, when configured. */
  chain: EvmChain | null;
}

/** A chain reachable by JSON-RPC, where EIP-1271 wallets are asked whether a signature is theirs. */
export interface EvmChain {
  /** The chain's id and a provider bound to it, once the endpoint has told its id (asked again after a failure). */
  connect(): Promise<{ chainId: number; provider: JsonRpcProvider }>;
  /** Stops the provider, if one was made. */
  destroy(): void;
}

/**
 * The endpoint's chain id, asked by a provider that is destroyed at once: one left to detect its network retries for
 * as long as the endpoint refuses, printing a line to stdout every second.
 */
async function askChainId(url: string): Promise<number> {
  const probe = new JsonRpcProvider(url, undefined, { staticNetwork: true, batchMaxCount: 1 });
  try {
    return Number((await probe.getNetwork()).chainId);
  } finally {
    probe.destroy();
  }
}

/**
 * Connects to the JSON-RPC endpoint of PORTAL_EVM_RPC_URL, on first use: the provider is made once the chain id is known,
 * bound to it, so it never detects a network itself.
 */
export function createEvmChain(url: string): EvmChain {
  let connected: Promise<{ chainId: number; provider: JsonRpcProvider }> | null = null;
  let made: JsonRpcProvider | null = null;
  return {
    connect() {
      connected ??= askChainId(url).then((chainId) => {
        const network = Network.from(chainId);
        made = new JsonRpcProvider(url, network, { staticNetwork: network, batchMaxCount: 1 });
        return { chainId, provider: made };
      });
      connected.catch(() => {
        connected = null;
      });
      return connected;
    },
    destroy() {
      made?.destroy();
    },
  };
}

const SKEW_MS = 60_000;

function parse(text: string): SiweMessage {
  try {
    return new SiweMessage(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ValidationError(`message is not an EIP-4361 sign-in message: ${reason}`, { code: "invalid-message", field: "message" });
  }
}

/**
 * Checks an EIP-4361 message and its signature. Refusals: `invalid-message` (not EIP-4361, no
 * Expiration Time), `wrong-domain`, `wrong-chain`, `message-expired`, `message-not-yet-valid`,
 * `message-lifetime-too-long`, `invalid-signature`. The nonce is only read here; the caller uses it up.
 */
export async function checkEvmMessage(text: string, signature: string, options: EvmCheckOptions, now: Date = new Date()): Promise<SignedWallet> {
  const message = parse(text);
  if (message.domain !== options.domain) throw new AuthError("wrong-domain", `the message is for ${message.domain}; sign a message for ${options.domain}`);
  if (!options.chainIds.includes(message.chainId)) {
    throw new AuthError("wrong-chain", `chain id ${message.chainId} is not accepted (accepted: ${options.chainIds.join(", ")})`);
  }
  if (!message.expirationTime) throw new ValidationError("message must carry an Expiration Time", { code: "invalid-message", field: "message" });
  const issuedAt = Date.parse(message.issuedAt ?? "");
  const expiresAt = Date.parse(message.expirationTime);
  if (expiresAt <= now.getTime()) throw new AuthError("message-expired", `the message expired at ${message.expirationTime}`);
  if (issuedAt > now.getTime() + SKEW_MS) throw new AuthError("message-not-yet-valid", `the message is issued at ${message.issuedAt}, in the future`);
  if (message.notBefore && Date.parse(message.notBefore) > now.getTime() + SKEW_MS) {
    throw new AuthError("message-not-yet-valid", `the message is valid from ${message.notBefore}`);
  }
  if (expiresAt - issuedAt > options.maxLifetimeS * 1000) {
    throw new AuthError("message-lifetime-too-long", `a message may live at most ${options.maxLifetimeS} s from Issued At to Expiration Time`);
  }
  if (!/^0x[0-9a-fA-F]+$/.test(signature)) throw new AuthError("invalid-signature", "signature must be 0x-prefixed hex");
  // A key-held wallet (EOA) is recognised offline; only otherwise is the chain asked (EIP-1271), and only
  // the chain the message names: a contract wallet of another chain cannot prove itself here.
  if (!signedByKey(message, signature)) {
    const chain = options.chain ? await connected(options.chain) : null;
    if (!chain || chain.chainId !== message.chainId) throw new AuthError("invalid-signature", "the signature does not match the message and its address");
    const result = await message.verify(
      { signature, domain: options.domain, nonce: message.nonce, time: now.toISOString() },
      { suppressExceptions: true, provider: chain.provider },
    );
    if (!result.success) {
      const cause = result.error as { code?: string } | undefined;
      if (cause?.code === "NETWORK_ERROR" || cause?.code === "TIMEOUT" || cause?.code === "SERVER_ERROR") {
        throw new RetryableError("chain-unavailable", "the chain could not be asked about a contract wallet; try again", { cause: rpcFailure(result.error) });
      }
      throw new AuthError("invalid-signature", "the signature does not match the message and its address");
    }
  }
  return { address: message.address, nonce: message.nonce };
}

async function connected(chain: EvmChain): Promise<{ chainId: number; provider: JsonRpcProvider }> {
  try {
    return await chain.connect();
  } catch (err) {
    throw new RetryableError("chain-unavailable", "the chain could not be reached to check a contract wallet; try again", { cause: rpcFailure(err) });
  }
}

// EIP-191 personal_sign over the message as EIP-4361 writes it; a malformed signature recovers nothing.
function signedByKey(message: SiweMessage, signature: string): boolean {
  try {
    return verifyMessage(message.prepareMessage(), signature) === message.address;
  } catch {
    return false;
  }
}
