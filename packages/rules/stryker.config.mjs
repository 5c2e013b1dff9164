// Mutation testing of @pointwise/rules (`npm run mutate -- rules`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "rules",
  mutate: ["src/**/*.ts", "!src/**/*.test.ts", "!src/index.ts"],
});
