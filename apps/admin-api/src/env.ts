import { envVars, parseEnv, serviceEnv } from "@pointwise/config";
import { z } from "zod";

/** admin-api settings; parsed once at start, read nowhere else. */
export const envSchema = z.object({
  ...serviceEnv,
  PORT: envVars.port(4003),
  HOST: z.string().default("127.0.0.1"),
  /** HS256 secret for operator session tokens; at least 32 characters. */
  ADMIN_JWT_SECRET: z.string().min(32, "must be at least 32 characters"),
  /** The first operator of the demo project, created at start when absent. */
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(12, "must be at least 12 characters").optional(),
  ADMIN_PROJECT_NAME: z.string().default("Demo project"),
});

/** admin-api settings. */
export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws a ConfigError naming each bad variable. */
export function loadEnv(env: Record<string, string | undefined> = process.env): Env {
  return parseEnv(envSchema, env);
}
