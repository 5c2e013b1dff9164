// The participant page's script: EIP-4361 sign-in through the browser wallet (EIP-1193), social links (OAuth through
// portal-api), the user's own profile and scores, and rewards to spend them on.

(() => {
  const query = new URLSearchParams(location.search);
  // Linking a social account leaves the page for the provider; the session waits in this tab's storage meanwhile.
  const SAVED = "pointwise-portal-session";
  const saved = JSON.parse(sessionStorage.getItem(SAVED) ?? "null");
  sessionStorage.removeItem(SAVED);
  const campaignId = query.get("campaign") ?? saved?.campaign_id ?? "";
  const $ = (id) => document.getElementById(id);
  let session = saved;
  const PROVIDER_NAMES = { x: "X", discord: "Discord", github: "GitHub" };
  let config = null;

  function status(text) {
    $("status").textContent = text;
  }

  async function api(method, path, body, base = "") {
    // No Content-Type without a body: the read API's CORS preflight allows only its credential headers.
    const headers = body === undefined ? {} : { "content-type": "application/json" };
    if (session) headers.authorization = `Bearer ${session.access_token}`;
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    if (!res.ok) throw Object.assign(new Error(parsed?.error?.message ?? `HTTP ${res.status}`), { code: parsed?.error?.code, status: res.status });
    return parsed;
  }

  function hex(text) {
    return `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  }

  /** Writes an EIP-4361 message for the wallet's address with a fresh nonce and has the wallet sign it. */
  async function signedMessage(address) {
    const nonce = await api("POST", "/auth/nonce", { campaign_id: campaignId });
    const chainId = Number.parseInt(await window.ethereum.request({ method: "eth_chainId" }), 16);
    const issued = new Date();
    const message = [
      `${nonce.domain} wants you to sign in with your Ethereum account:`,
      address,
      "",
      "Sign in to see your points.",
      "",
      `URI: ${location.origin}`,
      "Version: 1",
      `Chain ID: ${chainId}`,
      `Nonce: ${nonce.nonce}`,
      `Issued At: ${issued.toISOString()}`,
      `Expiration Time: ${new Date(issued.getTime() + 120_000).toISOString()}`,
    ].join("\n");
    const signature = await window.ethereum.request({ method: "personal_sign", params: [hex(message), address] });
    return { message, signature };
  }

  async function render() {
    const me = await api("GET", "/me");
    $("signed-out").hidden = true;
    $("signed-in").hidden = false;
    $("name").textContent = me.display_name ?? "(no name yet)";
    $("referral-code").textContent = me.referral_code;
    $("identities").replaceChildren(
      ...me.identities.map((i) => {
        const li = document.createElement("li");
        li.textContent = `${i.identity_type} ${i.handle ?? i.account_id}`;
        return li;
      }),
    );
    await renderRewards(me);
    try {
      const scores = await api("GET", `/users/${me.user_id}/scores`, undefined, config.read_api_url);
      $("scores").textContent = Object.entries(scores.scores)
        .map(([currency, s]) => {
          const left = scores.balances?.[currency];
          return `${scores.currency_names[currency] ?? currency}: ${s.total}${left && left.spent !== 0 ? ` (${left.balance} left to spend)` : ""}`;
        })
        .join(", ");
    } catch (err) {
      $("scores").textContent = err.code === "user-not-found" ? "no points yet" : `scores unavailable (${err.code ?? err.message})`;
    }
  }

  /** The catalogue with a Redeem button each (a token claim pays out to the user's first EVM wallet), and the user's redemptions. */
  async function renderRewards(me) {
    const [{ rewards }, { redemptions }] = await Promise.all([api("GET", "/me/rewards"), api("GET", "/me/redemptions")]);
    const wallet = me.identities.find((i) => i.identity_type === "EVM_ADDRESS")?.account_id;
    $("rewards").replaceChildren(
      ...rewards.map((r) => {
        const li = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = "Redeem";
        button.addEventListener("click", () =>
          run(async () => {
            const body = { reward_id: r.id, ...(r.kind === "token-claim" ? { account: wallet } : {}) };
            const res = await fetch("/me/redemptions", {
              method: "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${session.access_token}`, "idempotency-key": crypto.randomUUID() },
              body: JSON.stringify(body),
            });
            const made = await res.json();
            if (!res.ok) throw Object.assign(new Error(made.error.message), { code: made.error.code });
            $("voucher-code").hidden = made.code === null;
            $("code").textContent = made.code ?? "";
            status(`Redeemed ${r.name}: ${made.status}.`);
            await render();
          }),
        );
        li.append(`${r.name} — ${r.price} ${r.currency} `, button);
        return li;
      }),
    );
    $("redemptions").replaceChildren(
      ...redemptions.map((r) => {
        const li = document.createElement("li");
        li.textContent = `${r.reward_name}: ${r.price} ${r.currency}, ${r.status}${r.status_note ? ` (${r.status_note})` : ""}`;
        return li;
      }),
    );
  }

  async function run(action) {
    status("");
    try {
      await action();
    } catch (err) {
      status(err.code ? `${err.code}: ${err.message}` : err.message);
    }
  }

  $("sign-in").addEventListener("click", () =>
    run(async () => {
      if (!window.ethereum) throw new Error("no browser wallet found");
      const [address] = await window.ethereum.request({ method: "eth_requestAccounts" });
      session = await api("POST", "/auth/wallet", { campaign_id: campaignId, ...(await signedMessage(address)) });
      await render();
    }),
  );

  $("link-wallet").addEventListener("click", () =>
    run(async () => {
      const me = await api("GET", "/me");
      const linked = new Set(me.identities.map((i) => i.account_id));
      const accounts = await window.ethereum.request({ method: "eth_requestAccounts" });
      const address = accounts.find((a) => !linked.has(a.toLowerCase()));
      if (!address) throw new Error("choose a wallet account that is not linked yet");
      await api("POST", "/me/wallets", await signedMessage(address));
      await render();
    }),
  );

  function socialButtons() {
    $("social-links").replaceChildren(
      ...(config.oauth_providers ?? []).map((provider) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = `Link your ${PROVIDER_NAMES[provider] ?? provider} account`;
        button.addEventListener("click", () =>
          run(async () => {
            const started = await api("POST", `/me/oauth/${provider}/start`);
            sessionStorage.setItem(SAVED, JSON.stringify(session));
            location.assign(started.authorization_url);
          }),
        );
        return button;
      }),
    );
  }

  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run(async () => {
      const name = $("display-name").value.trim();
      await api("PATCH", "/me", { display_name: name === "" ? null : name });
      await render();
    });
  });

  $("sign-out").addEventListener("click", () =>
    run(async () => {
      await api("POST", "/auth/sign-out");
      session = null;
      $("signed-in").hidden = true;
      $("signed-out").hidden = false;
    }),
  );

  fetch("/web-config.json")
    .then((res) => res.json())
    .then((loaded) => {
      config = loaded;
      $("campaign").textContent = campaignId ? `Campaign ${campaignId}` : "Add ?campaign=<id> to the address.";
      socialButtons();
      if (!session) return;
      // Back from a provider: show the outcome the callback put in the address, then drop it from there.
      run(async () => {
        await render();
        const linked = query.get("linked");
        const failed = query.get("link_error");
        history.replaceState(null, "", `?campaign=${encodeURIComponent(campaignId)}`);
        if (failed) throw Object.assign(new Error("the account was not linked"), { code: failed });
        if (linked) status(`Linked your ${PROVIDER_NAMES[linked] ?? linked} account.`);
      });
    });
})();
