export { closeServer, createHttpApp, finishHttpApp, type HttpAppOptions, httpStatusOf, listen, parseWith, type ReadinessCheck, sendError } from "./http";
export { type Running, runService, SHUTDOWN_TIMEOUT_MS } from "./lifecycle";
