/** Local test chain for the indexer's end-to-end tests: fixed chain id and start date, blocks mined per transaction. */
module.exports = {
  networks: { hardhat: { chainId: 31337, initialDate: "2024-01-01T00:00:00Z", loggingEnabled: false } },
};
