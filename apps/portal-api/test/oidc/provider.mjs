// A real OpenID Connect provider (the oidc-provider package) for portal-api's OAuth tests, run as its own process
// (the package is ESM only). Settings come as one JSON argument: port, clients, and the accounts it knows.
import Provider from "oidc-provider";

const { port, clients, accounts } = JSON.parse(process.argv[2]);
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients,
  scopes: ["openid", "profile"],
  claims: { openid: ["sub"], profile: ["preferred_username"] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  async findAccount(_ctx, id) {
    const account = accounts[id];
    if (!account) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, preferred_username: account.username }) };
  },
});
provider.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => process.exit(0));
