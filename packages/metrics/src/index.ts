// Entry point of @pointwise/metrics: the Prometheus registry of one app and the metrics every app shares.
export { parseExposition, type Sample, type SampleLabels, sampleValue } from "./exposition";
export { createServiceMetrics, type DependencyProbe, HTTP_BUCKETS, type ServiceMetrics, type ServiceMetricsOptions } from "./service";
