// Mutation testing of @pointwise/rules (`npm run mutate -- rules`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "rules",
  mutate: ["src/**/*.ts", "!src/**/*.test.ts", "!src/index.ts"],
  // decay.ts builds its 2^(1/2^i) table at load: a mutant there breaks every decayed award, and
  // running the whole suite once per such mutant takes longer than the rest of the run.
  ignoreStatic: true,
});
