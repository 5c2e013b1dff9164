// The EVM chains `network.chainId` may name; docs/indexer-config.md lists the same table, held to it by chains.test.ts.
/** An EVM chain the indexer supports. */
export interface ChainInfo {
  id: number;
  name: string;
  testnet: boolean;
}

/**
 * The chain list shipped with the service: `network.chainId` must be one of these.
 * Local development chains (Hardhat, Ganache-style 1337) are included so the indexer can run against a local node.
 */
export const CHAINS: readonly ChainInfo[] = [
  { id: 1, name: "Ethereum", testnet: false },
  { id: 10, name: "OP Mainnet", testnet: false },
  { id: 56, name: "BNB Smart Chain", testnet: false },
  { id: 100, name: "Gnosis", testnet: false },
  { id: 130, name: "Unichain", testnet: false },
  { id: 137, name: "Polygon PoS", testnet: false },
  { id: 146, name: "Sonic", testnet: false },
  { id: 250, name: "Fantom Opera", testnet: false },
  { id: 324, name: "ZKsync Era", testnet: false },
  { id: 480, name: "World Chain", testnet: false },
  { id: 1101, name: "Polygon zkEVM", testnet: false },
  { id: 1284, name: "Moonbeam", testnet: false },
  { id: 1329, name: "Sei EVM", testnet: false },
  { id: 1868, name: "Soneium", testnet: false },
  { id: 2741, name: "Abstract", testnet: false },
  { id: 5000, name: "Mantle", testnet: false },
  { id: 8453, name: "Base", testnet: false },
  { id: 34443, name: "Mode", testnet: false },
  { id: 42161, name: "Arbitrum One", testnet: false },
  { id: 42170, name: "Arbitrum Nova", testnet: false },
  { id: 42220, name: "Celo", testnet: false },
  { id: 43114, name: "Avalanche C-Chain", testnet: false },
  { id: 57073, name: "Ink", testnet: false },
  { id: 59144, name: "Linea", testnet: false },
  { id: 80094, name: "Berachain", testnet: false },
  { id: 81457, name: "Blast", testnet: false },
  { id: 167000, name: "Taiko", testnet: false },
  { id: 534352, name: "Scroll", testnet: false },
  { id: 7777777, name: "Zora", testnet: false },
  { id: 17000, name: "Holesky", testnet: true },
  { id: 84532, name: "Base Sepolia", testnet: true },
  { id: 421614, name: "Arbitrum Sepolia", testnet: true },
  { id: 560048, name: "Hoodi", testnet: true },
  { id: 11155111, name: "Sepolia", testnet: true },
  { id: 11155420, name: "OP Sepolia", testnet: true },
  { id: 1337, name: "Local development chain", testnet: true },
  { id: 31337, name: "Hardhat local chain", testnet: true },
];

/** The chain with `id`, if the shipped list has it. */
export function findChain(id: number): ChainInfo | undefined {
  return CHAINS.find((chain) => chain.id === id);
}
