// Mutation testing of the erc20-holdings adapter (`npm run mutate -- erc20-holdings`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "erc20-holdings",
  mutate: ["src/**/*.ts", "!src/**/*.test.ts"],
});
