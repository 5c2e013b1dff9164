// HTTP helpers for tests that talk to an app over the network.

/** POSTs JSON and returns the parsed answer and its headers; throws only when no HTTP answer came within 15 s. */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert each field they read
export async function postJson(url: string, body: unknown, headers: Record<string, string>): Promise<{ body: any; headers: Headers; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { body: JSON.parse(text), headers: res.headers, text };
}
