// Config input and results: JSON text, base64 in INDEXER_CONFIG, unknown fields and adapters, adapter params, and the thrown ConfigError.
import { ConfigError } from "@pointwise/errors";
import { base, messages, registry, TOKEN, validateEdited } from "../testing/config";
import { type ConfigResult, parseConfigBase64, parseConfigText, unwrapConfig, validateConfig } from "./validate";

const NOT_BASE64: ConfigResult = { ok: false, issues: [{ path: "", message: "INDEXER_CONFIG must be base64 of the config file" }] };

/** The base config with a label value whose bytes encode to '+' or '/' in base64 at any alignment ("?>?" is Pz4/, ">?>" is Pj8+). */
function configWithSymbols(): Record<string, unknown> {
  const config = base();
  config.assetFeedConfig[0].match = { matchLabels: { note: "?>?>?>?>?>" } };
  return config;
}

describe("parseConfigText", () => {
  it("validates the parsed text like the object itself", () => {
    expect(parseConfigText(JSON.stringify(base()), registry)).toEqual(validateConfig(base(), registry));
  });

  it("reads a file that starts with a UTF-8 byte order mark, as some Windows editors save it", () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(base()))]).toString("utf8");
    expect(withBom.charCodeAt(0)).toBe(0xfeff);
    const read = parseConfigText(withBom, registry);
    // Accepted, and the config read is the one written (not only equal to what the validator makes of it).
    expect(read.ok && read.config.indexerId).toBe((base() as { indexerId: string }).indexerId);
    expect(read).toEqual(validateConfig(base(), registry));
  });

  it("reports text that is not JSON with the parser's own message", () => {
    const text = '{ "kind": "evm", }';
    let parserMessage = "";
    try {
      JSON.parse(text);
    } catch (err) {
      parserMessage = (err as Error).message;
    }
    expect(parserMessage).not.toBe("");
    expect(parseConfigText(text, registry)).toEqual({ ok: false, issues: [{ path: "", message: `config is not valid JSON: ${parserMessage}` }] });
  });
});

describe("parseConfigBase64", () => {
  const text = JSON.stringify(configWithSymbols());
  const standard = Buffer.from(text).toString("base64");
  const expected = validateConfig(configWithSymbols(), registry);

  it("reads the output of base64 -w0", () => {
    expect(expected.ok).toBe(true);
    expect(parseConfigBase64(standard, registry)).toEqual(expected);
  });

  it("ignores line breaks, spaces and tabs inside the base64 (base64 without -w0 wraps at 76 columns)", () => {
    const wrapped = `  ${standard.match(/.{1,76}/g)?.join("\n")}\r\n\t`;
    expect(wrapped).toContain("\n");
    expect(parseConfigBase64(wrapped, registry)).toEqual(expected);
  });

  it("reads the url-safe alphabet ('-' and '_' for '+' and '/'), as Node's base64 decoder does", () => {
    const urlSafe = Buffer.from(text).toString("base64url");
    expect(standard).toMatch(/[+/]/);
    expect(urlSafe).toMatch(/[-_]/);
    expect(parseConfigBase64(urlSafe, registry)).toEqual(expected);
  });

  it.each([
    ["an empty value", ""],
    ["only whitespace", " \n\t "],
    ["characters outside base64", "e30%"],
    ["padding before the data", "=e30"],
    ["padding inside the data", "e3=0"],
    ["three padding characters", "e30==="],
    // A last group of one character holds 6 bits, less than a byte: no encoder writes it.
    ["one character", "Q"],
    ["a group of four and one character", "e30hQ"],
    ["padding after a group of one character", "e30hQ==="],
    ["padding that does not end a group of four", "e30hQQ="],
  ])("refuses %s", (_name, encoded) => {
    expect(parseConfigBase64(encoded, registry)).toEqual(NOT_BASE64);
  });

  it("reads base64 without its padding, and of a file with a byte order mark", () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(parseConfigBase64(bom.toString("base64"), registry)).toEqual(expected);
    // Trailing spaces are JSON whitespace; one of two lengths in three needs padding.
    const padded = [`${text} `, `${text}  `].map((t) => Buffer.from(t).toString("base64")).find((b) => b.endsWith("="));
    expect(parseConfigBase64(String(padded).replace(/=+$/, ""), registry)).toEqual(expected);
  });

  it("reports base64 of text that is not JSON as invalid JSON", () => {
    const result = parseConfigBase64(Buffer.from("kind: evm").toString("base64"), registry);
    expect(!result.ok && result.issues.map((i) => i.message.startsWith("config is not valid JSON: "))).toEqual([true]);
  });
});

describe("validateConfig", () => {
  it("names one unknown field", () => {
    expect(validateEdited((c) => (c.network.chain = 1))).toEqual({ ok: false, issues: [{ path: "network", message: "network has unknown field chain" }] });
  });

  it("names every unknown field of an object in one message", () => {
    expect(messages((c) => Object.assign(c, { flushMS: 1, indexerID: "x" }))).toEqual(["config has unknown fields flushMS, indexerID"]);
  });

  it("refuses an unregistered adapter, listing the registered ones", () => {
    expect(validateEdited((c) => (c.adapterConfig.adapterId = "foo"))).toEqual({
      ok: false,
      issues: [{ path: "adapterConfig.adapterId", message: "Unknown adapter: foo. Available adapters: hold-test, no-params" }],
    });
  });

  it("returns the adapter params as the adapter's schema parsed them, defaults included", () => {
    const result = validateConfig(base(), registry);
    expect(result.ok && result.config.adapterConfig).toEqual({ adapterId: "hold-test", params: { token: TOKEN, activity: "hold" } });
  });

  it("prefixes an adapter's rule with the params path", () => {
    expect(validateEdited((c) => (c.adapterConfig.params = { token: "0xABC" }))).toEqual({
      ok: false,
      issues: [{ path: "adapterConfig.params.token", message: "adapterConfig.params.token must be a lowercase address" }],
    });
  });
});

describe("unwrapConfig", () => {
  it("returns the config of a valid result", () => {
    const result = validateConfig(base(), registry);
    expect(result.ok && unwrapConfig(result)).toEqual(result.ok && result.config);
  });

  it("throws a ConfigError joining every message and carrying the issues", () => {
    const result = validateEdited((c) => Object.assign(c, { flushMs: 10, stateStoreUrl: "memcached://x" }));
    let thrown: unknown;
    try {
      unwrapConfig(result);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const error = thrown as ConfigError;
    expect(error.code).toBe("config-invalid");
    expect(error.message).toBe("Invalid indexer config: flushMs must be at least 3600000; stateStoreUrl must begin with redis:// or rediss://");
    expect(error.details).toEqual({
      issues: [
        { path: "flushMs", message: "flushMs must be at least 3600000" },
        { path: "stateStoreUrl", message: "stateStoreUrl must begin with redis:// or rediss://" },
      ],
    });
  });
});
