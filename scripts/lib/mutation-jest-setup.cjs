// Loaded before every test file of a mutation run (setupFiles in scripts/lib/mutation.mjs). A mutation run asks
// of each property only that it fails on the mutant, so two things a normal test run wants are cut here:
// - shrinking: reducing a counterexample to its smallest form runs the property hundreds of times more, minutes per
//   mutant, and tells a mutation run nothing (endOnFailure);
// - case counts: a property runs a quarter of the cases its test asks for, at least MIN_RUNS (fast-check's default
//   of 100 becomes 25). A mutant that only a rarer case would catch then counts as survived, so the score can only
//   come out lower than with every case; it is what makes the rules package (whose property tests cover nearly
//   every line) run in hours and not a day, while a property that is a file's main test (1,500 random events
//   against the schemas) still runs hundreds.
const MIN_RUNS = 25;
/** The cases a mutation run makes of a property whose test asks for `requested`. */
const runsFor = (requested) => Math.min(requested, Math.max(MIN_RUNS, Math.ceil(requested / 4)));

const fc = require("fast-check");

fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true, numRuns: MIN_RUNS });

jest.mock("fast-check", () => {
  const real = jest.requireActual("fast-check");
  const capped = (params) => ({ ...params, numRuns: runsFor(params?.numRuns ?? 100) });
  // The module's named exports are read-only getters: build a plain copy with assert and check wrapped.
  const api = { ...real };
  api.assert = (property, params) => real.assert(property, capped(params));
  api.check = (property, params) => real.check(property, capped(params));
  return { ...api, __esModule: true, default: api };
});
