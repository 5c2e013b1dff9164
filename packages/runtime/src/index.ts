// Entry point of @pointwise/runtime: the HTTP app shell and the process lifecycle services run under.
export { jsonBody, jsonBodyErrors, unstorableTextPath } from "./body";
export { type CorsPolicy, corsMiddleware, varyOrigin } from "./cors";
export {
  clientAddress,
  closeServer,
  createHttpApp,
  finishHttpApp,
  type HttpAppOptions,
  httpStatusOf,
  isMalformedPathParam,
  listen,
  parseWith,
  type ReadinessCheck,
  sendError,
} from "./http";
export { type Running, runService, SHUTDOWN_TIMEOUT_MS } from "./lifecycle";
export { maskUrl, rpcFailure } from "./mask";
export { type Dependency, openStartup, type Startup, type StartupOptions, StartupTimeoutError } from "./startup";
