// Entry point of @pointwise/metrics: the Prometheus registry of one app and the metrics every app shares.
export { createServiceMetrics, type DependencyProbe, HTTP_BUCKETS, type ServiceMetrics, type ServiceMetricsOptions } from "./service";
