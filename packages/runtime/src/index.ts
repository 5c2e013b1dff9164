// Entry point of @pointwise/runtime: the HTTP app shell and the process lifecycle services run under.
export { type CorsPolicy, corsMiddleware, varyOrigin } from "./cors";
export { closeServer, createHttpApp, finishHttpApp, type HttpAppOptions, httpStatusOf, listen, parseWith, type ReadinessCheck, sendError } from "./http";
export { type Running, runService, SHUTDOWN_TIMEOUT_MS } from "./lifecycle";
