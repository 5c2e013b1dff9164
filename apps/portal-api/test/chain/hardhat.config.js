/** Local test chain for portal-api's contract-wallet (EIP-1271) tests. */
module.exports = { networks: { hardhat: { chainId: 31337, loggingEnabled: false } } };
