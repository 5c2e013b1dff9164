// Mutation testing of the amm-v2 adapter (`npm run mutate -- amm-v2`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "amm-v2",
  mutate: ["src/**/*.ts", "!src/**/*.test.ts"],
});
