// Loaded before every test file of a mutation run (setupFiles in scripts/lib/mutation.mjs). A mutation run asks
// of each property only that it fails on the mutant, so two things a normal test run wants are cut here:
// - shrinking: reducing a counterexample to its smallest form runs the property hundreds of times more, minutes per
//   mutant, and tells a mutation run nothing (endOnFailure);
// - case counts: a property runs at most MAX_RUNS cases, not the hundreds its test asks for. A mutant that only a
//   rarer case would catch then counts as survived, so the score can only come out lower than with every case; it
//   is what makes the rules package (whose property tests cover nearly every line) run in an hour and not a day.
const MAX_RUNS = 25;

const fc = require("fast-check");

fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true, numRuns: MAX_RUNS });

jest.mock("fast-check", () => {
  const real = jest.requireActual("fast-check");
  const capped = (params) => ({ ...params, numRuns: Math.min(params?.numRuns ?? MAX_RUNS, MAX_RUNS) });
  // The module's named exports are read-only getters: build a plain copy with assert and check wrapped.
  const api = { ...real };
  api.assert = (property, params) => real.assert(property, capped(params));
  api.check = (property, params) => real.check(property, capped(params));
  return { ...api, __esModule: true, default: api };
});
