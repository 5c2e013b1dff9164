// Reading samples back from a registry's exposition: names, labels (escaped), histogram parts, ambiguity.
import { Counter, Histogram, Registry } from "prom-client";
import { parseExposition, sampleValue } from "./exposition";

describe("sampleValue", () => {
  it("reads counters and histogram parts by name and labels from a real registry's text", async () => {
    const registry = new Registry();
    const c = new Counter({ name: "t_requests_total", help: "h", labelNames: ["route", "status"], registers: [registry] });
    const h = new Histogram({ name: "t_seconds", help: "h", buckets: [0.1, 1], registers: [registry] });
    c.inc({ route: "/a", status: "200" }, 3);
    c.inc({ route: 'say "hi"\\', status: "404" });
    h.observe(0.05);
    h.observe(0.5);
    const text = await registry.metrics();
    expect(sampleValue(text, "t_requests_total", { route: "/a", status: "200" })).toBe(3);
    expect(sampleValue(text, "t_requests_total", { route: 'say "hi"\\' })).toBe(1);
    expect(sampleValue(text, "t_requests_total", { route: "/b" })).toBeUndefined();
    expect(sampleValue(text, "t_seconds_bucket", { le: "0.1" })).toBe(1);
    expect(sampleValue(text, "t_seconds_bucket", { le: "+Inf" })).toBe(2);
    expect(sampleValue(text, "t_seconds_count")).toBe(2);
    expect(sampleValue(text, "t_seconds_sum")).toBeCloseTo(0.55, 10);
    expect(parseExposition(text).filter((s) => s.name === "t_requests_total")).toHaveLength(2);
  });

  it("refuses a query that matches more than one series", async () => {
    const registry = new Registry();
    const c = new Counter({ name: "t_total", help: "h", labelNames: ["k"], registers: [registry] });
    c.inc({ k: "a" });
    c.inc({ k: "b" });
    const text = await registry.metrics();
    expect(() => sampleValue(text, "t_total")).toThrow("2 samples of t_total match {}: name more labels");
  });
});
