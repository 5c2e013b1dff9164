// Test support for portal-api's OAuth tests: a real OpenID Connect provider process and a browser-like walk through its login and consent.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "@pointwise/testkit";

/** An OpenID Connect provider (oidc-provider) on 127.0.0.1. */
export interface OidcProvider {
  issuer: string;
  /** Follows an authorization URL as a browser would, signs in as `accountId` and consents; returns the redirect back to the client. */
  authorize(authorizationUrl: string, accountId: string): Promise<URL>;
  stop(): Promise<void>;
}

/** Starts the provider with one confidential client and the accounts it knows (id → username), on `port` or a free one. */
export async function startOidcProvider(
  client: { clientId: string; clientSecret: string; redirectUris: string[] },
  accounts: Record<string, string>,
  /** A port chosen beforehand, when the client must be configured with the provider's address before it starts. */
  port?: number,
): Promise<OidcProvider> {
  port ??= await freePort();
  const settings = {
    port,
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    accounts: Object.fromEntries(Object.entries(accounts).map(([id, username]) => [id, { username }])),
  };
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, "oidc", "provider.mjs"), JSON.stringify(settings)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`oidc provider exited with ${code}: ${output}`)));
  });
  const issuer = `http://127.0.0.1:${port}`;
  return {
    issuer,
    async authorize(authorizationUrl, accountId) {
      const jar = new Map<string, string>();
      const go = async (url: string, init: RequestInit = {}) => {
        const res = await fetch(url, {
          ...init,
          redirect: "manual",
          headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
        });
        for (const c of res.headers.getSetCookie()) {
          const [pair = ""] = c.split(";");
          const i = pair.indexOf("=");
          jar.set(pair.slice(0, i), pair.slice(i + 1));
        }
        return res;
      };
      let res = await go(authorizationUrl);
      for (let step = 0; step < 10; step++) {
        const location = res.headers.get("location");
        if (location) {
          const next = new URL(location, issuer);
          if (next.origin !== issuer) return next;
          res = await go(next.toString());
          continue;
        }
        // A page of the provider's dev interactions: its form, with the login filled in where asked.
        const html = await res.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`no form and no redirect at step ${step}: ${html.slice(0, 300)}`);
        const fields = new URLSearchParams();
        for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields.set(m[1] as string, m[2] as string);
        if (html.includes('name="login"')) {
          fields.set("login", accountId);
          fields.set("password", "any");
        }
        res = await go(new URL(action, issuer).toString(), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: fields.toString(),
        });
      }
      throw new Error("the provider did not redirect back within 10 steps");
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
