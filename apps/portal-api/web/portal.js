// The participant page's script: EIP-4361 sign-in through the browser wallet (EIP-1193), social links (OAuth through
// portal-api), the user's own profile and scores, rewards to spend them on, and token claims submitted through the wallet.

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
  /** What a link error of the OAuth callback means for the participant. */
  const LINK_ERRORS = {
    "invalid-oauth-state": "the link was not started in this browser, or took too long; start it again from this page",
    "oauth-failed": "the provider did not confirm the account",
    "identity-limit-reached": "you have linked as many accounts of this provider as you may",
    "identity-points-spent": "the points of this account were already spent by the user who holds it, so it cannot move to you",
    "provider-unavailable": "the provider could not be reached; try again",
  };
  function status(text) {
    $("status").textContent = text;
  }

  /** What went wrong, for the participant: the service's message, or the HTTP status when its answer was not JSON. */
  const reason = (err) => err?.message ?? String(err);

  /** fetch, with the browser's "Failed to fetch" (no answer at all: offline, refused, blocked by CORS) said in words. */
  async function send(url, init) {
    try {
      return await fetch(url, init);
    } catch {
      throw new Error("the server could not be reached");
    }
  }

  // Scores are exact decimals written as JSON numbers: keep each number's own text where the browser gives it.
  const exactNumbers = (_key, value, context) => (typeof value === "number" && typeof context?.source === "string" ? context.source : value);

  function signedOut() {
    session = null;
    $("signed-in").hidden = true;
    $("signed-out").hidden = false;
  }

  // One refresh at a time: a refresh token is used up by its refresh, so two at once would end the session.
  let refreshing = null;
  function refreshed() {
    refreshing ??= (async () => {
      try {
        const res = await send("/auth/refresh", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ refresh_token: session.refresh_token }),
        });
        if (!res.ok) return false;
        session = await res.json();
        return true;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  async function api(method, path, body, base = "", extraHeaders = {}) {
    for (let attempt = 0; ; attempt++) {
      // No Content-Type without a body: the read API's CORS preflight allows only its credential headers.
      const headers = { ...(body === undefined ? {} : { "content-type": "application/json" }), ...extraHeaders };
      const sent = session?.access_token;
      if (sent) headers.authorization = `Bearer ${sent}`;
      const res = await send(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      let parsed = null;
      try {
        parsed = text ? JSON.parse(text, base ? exactNumbers : undefined) : null;
      } catch {
        // A proxy's error page (502, 504) is HTML: the status says more than the parser's complaint about a "<".
        if (res.ok) throw new Error(`HTTP ${res.status}: the answer was not JSON`);
      }
      if (res.ok) return parsed;
      const code = parsed?.error?.code;
      // An access token lives minutes; the refresh token gets a new one, and the request goes again once.
      if (code === "token-expired" && attempt === 0 && session?.refresh_token) {
        // A request sent with the old token whose refusal came after another request's refresh goes again with the
        // new token; refreshing again would spend a refresh token for nothing.
        if (session.access_token !== sent || (await refreshed())) continue;
        signedOut();
        throw Object.assign(new Error("your session ended; sign in again"), { code: "signed-out" });
      }
      throw Object.assign(new Error(parsed?.error?.message ?? `HTTP ${res.status}`), { code, status: res.status });
    }
  }

  function hex(text) {
    return `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  }

  /** Writes an EIP-4361 message for the wallet's address with a fresh nonce and has the wallet sign it. */
  async function signedMessage(account) {
    // The nonce answer gives the address in its EIP-55 form (wallets may answer lowercase) and the service's times.
    const nonce = await api("POST", "/auth/nonce", { campaign_id: campaignId, address: account });
    const address = nonce.address;
    const chainId = Number.parseInt(await wallet().request({ method: "eth_chainId" }), 16);
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
      // The nonce's own life, in the service's clock: exactly as long as a message may live.
      `Issued At: ${nonce.issued_at}`,
      `Expiration Time: ${nonce.expires_at}`,
    ].join("\n");
    const signature = await wallet().request({ method: "personal_sign", params: [hex(message), address] });
    return { message, signature };
  }

  // While the signed-in view (or one of its sections) is being drawn it is aria-busy (draws may overlap: one after a
  // click, one after another).
  let rendering = 0;
  async function drawing(draw) {
    rendering++;
    $("signed-in").setAttribute("aria-busy", "true");
    try {
      await draw();
    } finally {
      rendering--;
      if (rendering === 0) $("signed-in").removeAttribute("aria-busy");
    }
  }
  const render = () => drawing(renderSignedIn);

  // What each section's Try again runs: the draw of its latest failure.
  const retries = new Map();

  /**
   * Draws one section with `draw`. A failure empties it (`clear`) and says what failed in its own place (`#<id>-failed`,
   * an alert) with a Try again button that runs `again`; the other sections go on. An ended session is no section's
   * failure: it goes on to the status line.
   */
  async function section(id, what, clear, draw, again = () => section(id, what, clear, draw)) {
    const failed = $(`${id}-failed`);
    try {
      await draw();
      // The Try again that was used goes away with its message: the keyboard goes on from the section's heading
      // (the redemptions' one when the claims went away with nothing to claim).
      const focused = failed.contains(document.activeElement);
      failed.hidden = true;
      if (focused) [$(`${id}-heading`), $("redemptions-heading")].find((el) => el.checkVisibility())?.focus();
    } catch (err) {
      if (err.code === "signed-out") throw err;
      clear();
      // One message and one button per section, kept across failures so the keyboard stays on the button.
      if (!failed.firstChild) {
        const retry = document.createElement("button");
        retry.type = "button";
        retry.textContent = "Try again";
        retry.addEventListener("click", () => {
          // Not `disabled`: a disabled button would lose the keyboard's focus.
          if (retry.getAttribute("aria-disabled") === "true") return;
          retry.setAttribute("aria-disabled", "true");
          run(() => drawing(retries.get(id))).finally(() => retry.removeAttribute("aria-disabled"));
        });
        failed.replaceChildren(document.createElement("span"), retry);
      }
      failed.firstChild.textContent = `${what} (${reason(err)}). `;
      retries.set(id, again);
      failed.hidden = false;
    }
  }

  /** Draws the signed-in view: the user and identities, then rewards, redemptions, token claims and scores together, each on its own. */
  async function renderSignedIn() {
    await configured();
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
    await Promise.all([
      section(
        "rewards",
        "Rewards could not be loaded",
        () => $("rewards").replaceChildren(),
        () => renderRewards(me),
      ),
      redemptionsAndClaims(),
      section(
        "scores",
        "scores unavailable",
        () => ($("scores").textContent = ""),
        () => renderScores(me),
      ),
    ]);
  }

  /**
   * Draws the redemptions and the token claims from one GET /me/redemptions (the claims list its burn vouchers). Only
   * the redemptions say when it failed; the claims say only when their own GET /me/claims failed. A Try again of
   * either draws both again.
   */
  function redemptionsAndClaims() {
    const listed = api("GET", "/me/redemptions");
    return Promise.all([
      section(
        "redemptions",
        "Your redemptions could not be loaded",
        () => $("redemptions").replaceChildren(),
        () => renderRedemptions(listed),
        redemptionsAndClaims,
      ),
      section(
        "claims",
        "Token claims could not be loaded",
        () => {
          $("claims").replaceChildren();
          $("claims-section").hidden = false;
        },
        () => renderClaims(listed),
        redemptionsAndClaims,
      ),
    ]);
  }

  /** The user's score in each currency (and what is left to spend), read from the read API. */
  async function renderScores(me) {
    let scores;
    try {
      scores = await api("GET", `/users/${me.user_id}/scores`, undefined, (await configured()).read_api_url);
    } catch (err) {
      if (err.code !== "user-not-found") throw err;
      $("scores").textContent = "no points yet";
      return;
    }
    $("scores").textContent = Object.entries(scores.scores)
      .map(([currency, s]) => {
        const left = scores.balances?.[currency];
        return `${scores.currency_names[currency] ?? currency}: ${s.total}${left && Number(left.spent) !== 0 ? ` (${left.balance} left to spend)` : ""}`;
      })
      .join(", ");
  }

  // The Idempotency-Key of a redemption whose answer never came (a network error or a 5xx): a retry sends the same
  // one, so it is answered by the redemption that was made instead of making a second.
  const unanswered = new Map();

  /** The catalogue with a Redeem button each (a token claim pays out to the user's first EVM wallet). */
  async function renderRewards(me) {
    const { rewards } = await api("GET", "/me/rewards");
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
            // getRandomValues, not randomUUID: the page may be served on plain http, where randomUUID does not exist.
            const key = unanswered.get(r.id) ?? Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
            unanswered.set(r.id, key);
            // One redemption per click: a second click while this one is on its way does nothing.
            button.disabled = true;
            let made;
            try {
              made = await api("POST", "/me/redemptions", body, "", { "idempotency-key": key });
              unanswered.delete(r.id);
            } catch (err) {
              // A refusal is final; only an answer that never came keeps the key for the next click.
              if (err.status !== undefined && err.status < 500) unanswered.delete(r.id);
              throw err;
            } finally {
              button.disabled = false;
            }
            showCode(made.code);
            status(
              `Redeemed ${r.name}: ${made.status}.${made.burn_voucher ? ` Your burn voucher expires ${new Date(Number(made.burn_voucher.expiry) * 1000).toISOString()}.` : ""}`,
            );
            await render();
          }),
        );
        li.append(`${r.name} — ${r.price} ${r.currency} `, button);
        return li;
      }),
    );
  }

  /** The user's redemptions (`listed`: the answer of GET /me/redemptions). */
  async function renderRedemptions(listed) {
    const { redemptions } = await listed;
    $("redemptions").replaceChildren(
      ...redemptions.map((r) => {
        const li = document.createElement("li");
        li.textContent = `${r.reward_name}: ${r.price} ${r.currency}, ${r.status}${r.status_note ? ` (${r.status_note})` : ""}`;
        if (r.kind === "voucher") {
          // Lists never carry codes; the one redemption shows its code to its owner.
          const show = document.createElement("button");
          show.type = "button";
          show.textContent = "Show code";
          show.addEventListener("click", () => run(async () => showCode((await api("GET", `/me/redemptions/${r.id}`)).code)));
          li.append(" ", show);
        }
        return li;
      }),
    );
  }

  const chain = globalThis.PointwiseChain;

  /** The wallet, or an error saying there is none. */
  function wallet() {
    if (!window.ethereum) throw new Error("no browser wallet found");
    return window.ethereum;
  }

  /** The chain the wallet is on, or null without a wallet. */
  async function walletChainId() {
    return window.ethereum ? Number.parseInt(await window.ethereum.request({ method: "eth_chainId" }), 16) : null;
  }

  /** Brings the wallet to the claim contract's chain, asking it to switch (EIP-3326) when it is on another. */
  async function onChain(chainId) {
    if ((await walletChainId()) === chainId) return;
    try {
      await wallet().request({ method: "wallet_switchEthereumChain", params: [{ chainId: `0x${chainId.toString(16)}` }] });
    } catch (err) {
      throw new Error(`switch your wallet to chain ${chainId}, where the claim contract is (${err?.message ?? err})`);
    }
  }

  /** Reads a contract through the wallet's node. */
  const read = (to, data) => wallet().request({ method: "eth_call", params: [{ to, data }, "latest"] });

  /** Sends a transaction from the wallet's first account and waits for it to be mined; a reverted one is an error. */
  async function transact(to, data) {
    const [from] = await wallet().request({ method: "eth_requestAccounts" });
    const hash = await wallet().request({ method: "eth_sendTransaction", params: [{ from, to, data }] });
    for (let polls = 0; polls < 600; polls++) {
      const receipt = await wallet().request({ method: "eth_getTransactionReceipt", params: [hash] });
      if (receipt) {
        if (receipt.status !== "0x1") throw new Error(`transaction ${hash} was reverted on chain`);
        return hash;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`transaction ${hash} is not mined after 5 minutes; your wallet shows what became of it`);
  }

  // The claim token's symbol and decimals, read once through the wallet while it is on the claim chain.
  let claimToken = null;
  function tokenOf(contract) {
    claimToken ??= (async () => {
      const address = chain.addressAnswer(await read(contract, chain.SELECTORS.token));
      const [decimals, symbol] = await Promise.all([read(address, chain.SELECTORS.decimals), read(address, chain.SELECTORS.symbol)]);
      return { decimals: Number(chain.uintAnswer(decimals)), symbol: chain.stringAnswer(symbol) };
    })().catch((err) => {
      claimToken = null;
      throw err;
    });
    return claimToken;
  }

  /**
   * What the chain says of the claims while the wallet is on the claim chain: the token's units, which epochs were
   * claimed and which vouchers used. Null on another chain, or when the wallet's node does not answer: the claims are
   * then shown without it, and submitting them still works.
   */
  async function chainState(info, vouchers) {
    if ((await walletChainId()) !== Number(info.chain_id)) return null;
    try {
      const unit = await tokenOf(info.contract);
      const claimed = await Promise.all(info.claims.map(async (c) => chain.boolAnswer(await read(info.contract, chain.claimedCall(c.epoch, c.account)))));
      const used = await Promise.all(vouchers.map(async (r) => chain.boolAnswer(await read(info.contract, chain.voucherUsedCall(r.burn_voucher)))));
      return { unit, claimed, used };
    } catch {
      return null;
    }
  }

  /**
   * Token claims: the user's Merkle claims of published epochs and burn vouchers, each with a button that submits
   * it through the wallet, or what became of it as far as the chain says (see chainState). `listed`: the answer of
   * GET /me/redemptions; without it (its failure is the redemptions' to say) the section stays hidden.
   */
  async function renderClaims(listed) {
    // Without a claim contract there is nothing to ask (web-config.json says whether there is one).
    if (!(await configured()).claims) return;
    const unlisted = (err) => {
      if (err.code === "signed-out") throw err;
      return null;
    };
    const [info, redemptions] = await Promise.all([api("GET", "/me/claims"), listed.then((l) => l.redemptions, unlisted)]);
    if (redemptions === null) {
      $("claims").replaceChildren();
      $("claims-section").hidden = true;
      return;
    }
    const vouchers = redemptions.filter((r) => r.burn_voucher);
    const none = info.claims.length === 0 && vouchers.length === 0;
    $("claims-section").hidden = none;
    if (none) return;
    const chainId = info.chain_id;
    const known = await chainState(info, vouchers);
    const amount = (value) => (known ? `${chain.formatUnits(value, known.unit.decimals)} ${known.unit.symbol}` : `${value} base units of the claim token`);
    const claims = info.claims.map((c, i) =>
      claimItem(`Epoch ${c.epoch}: ${amount(c.amount)} to ${c.account}`, known?.claimed[i] ? "claimed" : null, "Claim", async () => {
        await onChain(chainId);
        return `Claimed epoch ${c.epoch} in transaction ${await transact(info.contract, chain.claimCall(c.epoch, c.account, c.amount, c.proof))}.`;
      }),
    );
    const burns = vouchers.map((r, i) => {
      const v = r.burn_voucher;
      const state = known?.used[i] ? "redeemed on chain" : Date.now() / 1000 > Number(v.expiry) ? "expired" : null;
      return claimItem(`${r.reward_name}: ${amount(v.amount)} to ${v.user}`, state, "Redeem on chain", async () => {
        await onChain(chainId);
        return `Redeemed ${r.reward_name} on chain in transaction ${await transact(info.contract, chain.redeemCall(v))}.`;
      });
    });
    $("claims").replaceChildren(...claims, ...burns);
  }

  /** One claim: its text and either what became of it or a button whose action answers the line to show. */
  function claimItem(text, state, label, submit) {
    const li = document.createElement("li");
    li.textContent = `${text} `;
    if (state) {
      li.append(`(${state})`);
      return li;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", () =>
      run(async () => {
        // One transaction per click: a second click while it is on its way does nothing.
        button.disabled = true;
        let done;
        try {
          done = await submit();
        } finally {
          button.disabled = false;
        }
        await render();
        status(done);
      }),
    );
    li.append(button);
    return li;
  }

  function showCode(code) {
    $("voucher-code").hidden = code === null || code === undefined;
    $("code").textContent = code ?? "";
  }

  async function run(action) {
    status("");
    try {
      await action();
    } catch (err) {
      // A wallet's errors carry EIP-1193 numbers (4001: the user declined), which say nothing to the participant.
      if (err.code === 4001) status("you declined the request in your wallet");
      else status(typeof err.code === "string" ? `${err.code}: ${err.message}` : reason(err));
    }
  }

  $("sign-in").addEventListener("click", () =>
    run(async () => {
      // A click before the settings came waits for them.
      await configured();
      const [address] = await wallet().request({ method: "eth_requestAccounts" });
      session = await api("POST", "/auth/wallet", { campaign_id: campaignId, ...(await signedMessage(address)) });
      await render();
    }),
  );

  $("link-wallet").addEventListener("click", () =>
    run(async () => {
      const me = await api("GET", "/me");
      const linked = new Set(me.identities.map((i) => i.account_id));
      const accounts = await wallet().request({ method: "eth_requestAccounts" });
      const address = accounts.find((a) => !linked.has(a.toLowerCase()));
      if (!address) throw new Error("choose a wallet account that is not linked yet");
      await api("POST", "/me/wallets", await signedMessage(address));
      await render();
    }),
  );

  function socialButtons(config) {
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
      signedOut();
    }),
  );

  // The page's settings (the read API's address, the providers, the claim contract), asked for once.
  const settings = api("GET", "/web-config.json");

  /** The page's settings once they came: what needs them waits for them, and fails only when they did not load. */
  async function configured() {
    try {
      return await settings;
    } catch {
      throw new Error("the page's settings did not load; reload the page");
    }
  }

  settings.then(
    (config) => {
      $("campaign").textContent = campaignId ? `Campaign ${campaignId}` : "Add ?campaign=<id> to the address.";
      socialButtons(config);
      // Back from a provider: the outcome the callback put in the address is shown, then dropped from there, also in
      // a tab with no session (a link started in another browser ends here).
      const linked = query.get("linked");
      const failed = query.get("link_error");
      if (linked || failed) history.replaceState(null, "", `?campaign=${encodeURIComponent(campaignId)}`);
      const outcome = () => {
        if (failed) throw Object.assign(new Error(LINK_ERRORS[failed] ?? "the account was not linked"), { code: failed });
        if (linked) status(`Linked your ${PROVIDER_NAMES[linked] ?? linked} account.`);
      };
      run(async () => {
        if (session) await render();
        outcome();
      });
    },
    // Without the settings (the read API's address, the providers) the page cannot work: say so rather than nothing.
    (err) => status(`The page's settings did not load (${reason(err)}); reload the page.`),
  );
})();
