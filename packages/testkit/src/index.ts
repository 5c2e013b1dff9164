// Entry point of @pointwise/testkit: real services, app processes, seeding, OpenAPI checks, wallet sign-in and browsers for tests.
export { CHROMIUM, type OpenBrowser, openBrowser } from "./browser";
export { type InjectedWalletOptions, injectWallet } from "./browser-wallet";
export { HARDHAT_MNEMONIC, type HardhatAccount, type HardhatNode, type HardhatNodeOptions, localChainProvider, startHardhatNode } from "./hardhat";
export { postJson } from "./http";
export { backendPid, waitUntilBlockedBy } from "./locks";
export { type NatsCluster, type NatsNode, startNatsCluster } from "./nats-cluster";
export { loadOpenApi, type OpenApi, type OpenApiName } from "./openapi";
export { type PgNode, type PgReplicaPair, startPostgresReplicaPair } from "./postgres-replica";
export {
  type AppName,
  type AppProcess,
  freePort,
  type NatsServer,
  repoRoot,
  spawnApp,
  startNatsServer,
  type UnreachableNats,
  unreachableNats,
  waitUntil,
} from "./processes";
export { createTcpProxy, type TcpProxy } from "./proxy";
export { seededRandom, seededUint32 } from "./random";
export { listRoutes } from "./routes";
export {
  newCampaignId,
  type SeedCampaignOptions,
  type SeedDb,
  type SeededApiKey,
  type SeededCampaign,
  type SeedRedemptionOptions,
  type SeedRewardOptions,
  type SeedScoreValues,
  seedApiKey,
  seedCampaign,
  seedCampaignWithKey,
  seedEventType,
  seedIdentity,
  seedProject,
  seedRedemption,
  seedReward,
  seedRuleVersion,
  seedScore,
  seedUser,
} from "./seed";
export {
  announceUntil,
  createTestBus,
  createTestCache,
  createTestDatabase,
  dropNamespace,
  streamMessages,
  testServiceEnv,
  testUrls,
  uniqueName,
} from "./services";
export { type Stack, type StackOptions, startStack } from "./stack";
export {
  type MessageSigner,
  type SiweFields,
  signInWithWallet,
  siweText,
  type WalletSession,
  type WalletSignInBody,
  walletSignInBody,
} from "./wallet-sign-in";
