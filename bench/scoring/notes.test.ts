import { sparedParts } from "../lib/machine-time";
import { describeCpu, describeMachineTime, describeSpared, type TimedSlice } from "./notes";

const rule = { limit: 0.05, minSpared: 2 };

/** A 5-s slice at `rate` events/s with `steal` of the machine's CPU time taken by the hypervisor. */
function slice(rate: number, steal: number | null): TimedSlice {
  return { events: rate * 5, seconds: 5, cpuSeconds: 3.5, machine: steal === null ? null : { busy: 0.5, steal, iowait: 0.02 } };
}

const spare = (slices: TimedSlice[]) => sparedParts(slices, (s) => s.machine, rule.limit, rule.minSpared);

describe("describeSpared", () => {
  it("says the rate is over every slice when the hypervisor spared them all", () => {
    expect(describeSpared(spare([slice(600, 0), slice(620, 0.05), slice(610, null)]), rule, 610, 610)).toBe(
      "the hypervisor took at most 5% of the machine's CPU time in every slice of the baseline, so its rate is over all of them",
    );
  });

  it("names the slices left out with their steal to one decimal, their rates and the rate over all", () => {
    const slices = [slice(600, 0.01), slice(400, 0.053), slice(620, 0), slice(300, 0.2)];
    expect(describeSpared(spare(slices), rule, 610, 480)).toBe(
      "2 of the baseline's 4 slices, in which the hypervisor took more than 5% of the machine's CPU time (5.3%, 20.0%), are left out of its rate: they ran at 400, 300 events/s against 600, 620 in the others; over all slices the baseline made 480 events/s, 610 without them",
    );
  });

  it("says so when too few slices were spared to leave the others out", () => {
    const slices = [slice(600, 0.01), slice(400, 0.1), slice(300, 0.2)];
    expect(describeSpared(spare(slices), rule, 433, 433)).toBe(
      "the hypervisor took more than 5% of the machine's CPU time in all but 1 of the baseline's 3 slices, fewer than the 2 needed to leave the others out, so the baseline's rate is over all of them, stolen time included",
    );
  });
});

describe("describeCpu", () => {
  it("gives each process's CPU as seconds and share of a core, and how busy the cores were", () => {
    expect(describeCpu({ worker: 17.2, "postgres for the worker": 13.3, "nats-server": 1.9 }, 25.6, 2)).toBe(
      "CPU over the worker's 25.6 s of running: worker 17.2 s (67% of a core), postgres for the worker 13.3 s (52% of a core), nats-server 1.9 s (7% of a core); the machine's 2 cores were 63% busy",
    );
  });
});

describe("describeMachineTime", () => {
  it("gives steal and iowait as a range over the slices, over all of them, and while the worker ran", () => {
    const slices = [
      { ...slice(600, 0), machine: { busy: 0.5, steal: 0, iowait: 0.02 } },
      { ...slice(600, 0), seconds: 15, machine: { busy: 0.5, steal: 0.1, iowait: 0.03 } },
    ];
    expect(describeMachineTime(slices, { busy: 0.7, steal: 0.01, iowait: 0.01 })).toBe(
      "the machine's CPU time by state (/proc/stat): in the baseline's slices steal 0-10% (8% over all) and iowait 2-3% (3%); while the worker ran steal 1% and iowait 1%",
    );
  });

  it("says when /proc/stat could not be read", () => {
    expect(describeMachineTime([slice(600, null)], null)).toBe("the machine's CPU time by state could not be read (no /proc/stat)");
  });
});
