import path from "node:path";
import { z } from "zod";

/** The standalone sandbox's environment (`npm run sandbox`). Inside `npm start` the app passes options instead. */
const envSchema = z
  .object({
    SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(4100),
    SANDBOX_HOST: z.string().min(1).default("127.0.0.1"),
    SANDBOX_PUBLIC_URL: z.url().optional(),
    SANDBOX_ACCESS_TOKEN: z.string().min(1).optional(),
    SANDBOX_DATA_FILE: z.string().min(1).default("./data/billing-sandbox.sqlite"),
    SANDBOX_WEBHOOK_URL: z.url().optional(),
    SANDBOX_WEBHOOK_SECRET: z.string().min(1).optional(),
  })
  .refine((env) => !env.SANDBOX_WEBHOOK_URL || env.SANDBOX_WEBHOOK_SECRET, {
    path: ["SANDBOX_WEBHOOK_SECRET"],
    message: "required with SANDBOX_WEBHOOK_URL",
  })
  // Without a token the sandbox takes any token, its reset control included: fine on this machine only.
  .refine((env) => isLoopbackHost(env.SANDBOX_HOST) || env.SANDBOX_ACCESS_TOKEN, {
    path: ["SANDBOX_ACCESS_TOKEN"],
    message: "required when SANDBOX_HOST is not a loopback address",
  });

function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

export type SandboxConfig = {
  port: number;
  host: string;
  publicUrl: string;
  accessToken?: string;
  dataFile: string;
  webhookEndpoint?: { url: string; secret: string };
};

export class SandboxConfigError extends Error {}

/** Lists every bad variable together, like the app's config (the webhook URL/secret pair is checked once the rest parse). */
export function loadSandboxConfig(source: Record<string, string | undefined> = process.env): SandboxConfig {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, value]) => value !== "")));
  if (!parsed.success)
    throw new SandboxConfigError(
      `Invalid sandbox configuration:\n${parsed.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`).join("\n")}`,
    );
  const env = parsed.data;
  return {
    port: env.SANDBOX_PORT,
    host: env.SANDBOX_HOST,
    publicUrl: (env.SANDBOX_PUBLIC_URL ?? `http://${env.SANDBOX_HOST}:${env.SANDBOX_PORT}`).replace(/\/+$/, ""),
    accessToken: env.SANDBOX_ACCESS_TOKEN,
    dataFile: env.SANDBOX_DATA_FILE === ":memory:" ? ":memory:" : path.resolve(env.SANDBOX_DATA_FILE),
    webhookEndpoint:
      env.SANDBOX_WEBHOOK_URL && env.SANDBOX_WEBHOOK_SECRET
        ? { url: env.SANDBOX_WEBHOOK_URL, secret: env.SANDBOX_WEBHOOK_SECRET }
        : undefined,
  };
}
