// Mutation testing of the vault adapter (`npm run mutate -- vault`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "vault",
  mutate: ["src/**/*.ts", "!src/**/*.test.ts"],
});
