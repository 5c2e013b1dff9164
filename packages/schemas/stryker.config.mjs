// Mutation testing of @pointwise/schemas (`npm run mutate -- schemas`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "schemas",
  mutate: ["src/**/*.ts", "!src/**/*.test.ts", "!src/index.ts", "!src/vectors/**"],
});
