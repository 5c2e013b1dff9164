// Test support for admin-api: one signed-in project shared by a test file's tests, closed after them.
import { type Harness, type Operator, startHarness } from "./harness";

/** The admin-api one test file runs against and the operator signed in to its project. */
export interface ProjectSuite {
  readonly h: Harness;
  readonly op: Operator;
}

/** Starts admin-api with one signed-in project shared by the calling file's tests, and closes it after them. */
export function sharedProject(name?: string): ProjectSuite {
  let harness: Harness | undefined;
  let operator: Operator | undefined;
  beforeAll(async () => {
    harness = await startHarness();
    operator = await harness.newProject(name);
  });
  afterAll(async () => {
    await harness?.close();
  });
  // Getters, because the file reads the suite at declaration time but the harness exists only once beforeAll has run.
  return {
    get h() {
      if (!harness) throw new Error("the harness is not started yet: use it inside a test or a hook");
      return harness;
    },
    get op() {
      if (!operator) throw new Error("the operator is not signed in yet: use it inside a test or a hook");
      return operator;
    },
  };
}
