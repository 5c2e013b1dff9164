// Mutation testing of the amm-v3 adapter (`npm run mutate -- amm-v3`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "amm-v3",
  mutate: ["src/**/*.ts", "!src/**/*.test.ts"],
});
