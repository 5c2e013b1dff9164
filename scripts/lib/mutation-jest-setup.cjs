// Loaded before every test file of a mutation run (setupFiles in scripts/lib/mutation.mjs): a property
// that fails on a mutant only has to fail. Shrinking the counterexample to its smallest form runs the
// property hundreds of times more, minutes per mutant, and tells a mutation run nothing.
const fc = require("fast-check");

fc.configureGlobal({ ...fc.readConfigureGlobal(), endOnFailure: true });
