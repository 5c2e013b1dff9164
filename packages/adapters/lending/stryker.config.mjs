// Mutation testing of the lending adapter (`npm run mutate -- lending`); settings in scripts/lib/mutation.mjs.
import { mutationConfig } from "../../../scripts/lib/mutation.mjs";

export default mutationConfig({
  packageDir: import.meta.dirname,
  name: "lending",
  mutate: ["src/**/*.ts", "!src/**/*.test.ts"],
});
