export { type AppName, type AppProcess, freePort, type NatsServer, repoRoot, spawnApp, startNatsServer, waitUntil } from "./processes";
export { createTcpProxy, type TcpProxy } from "./proxy";
export { createTestBus, createTestCache, createTestDatabase, dropNamespace, testServiceEnv, testUrls, uniqueName } from "./services";
export { type Stack, type StackOptions, startStack } from "./stack";
