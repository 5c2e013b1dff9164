// The sinks of a config and the pointwise sink's earn mappings: the exact message for each rule, at and past its limit, and defaults.
import { type Config, messages, validateEdited } from "../testing/config";

const UUID = "3f1c2b7e-5d7a-4c1e-9a43-0d1b6c2f8e10";

/** Sets a pointwise sink with `fields` over a valid one (one `swap` mapping) as the only sink. */
function pointwise(c: Config, fields: Config): void {
  c.sinkConfig.sinks = [{ sinkType: "pointwise", baseUrl: "https://api.pointwise.example", events: { swap: { regEventId: UUID, amount: "usd" } }, ...fields }];
}

/** Sets a pointwise sink whose only mapping is `swap` = `mapping`. */
function mapping(c: Config, mapping: unknown): void {
  pointwise(c, { events: { swap: mapping } });
}

const AMOUNTS = "sinkConfig.sinks[0].events.swap.amount must be one of usd, usdHours, amount, amountHours, count";

// Each row: what the user wrote (an edit of a valid config) and every message the docs promise for it; [] means accepted.
const rows: [string, (c: Config) => void, string[]][] = [
  ["refuses an empty csv path", (c) => (c.sinkConfig.sinks = [{ sinkType: "csv", path: "" }]), ["sinkConfig.sinks[0].path must not be empty"]],
  ["refuses a csv path of spaces only", (c) => (c.sinkConfig.sinks = [{ sinkType: "csv", path: "   " }]), ["sinkConfig.sinks[0].path must not be blank"]],
  [
    "refuses a csv path of a tab and a line break",
    (c) => (c.sinkConfig.sinks = [{ sinkType: "csv", path: "\t\n" }]),
    ["sinkConfig.sinks[0].path must not be blank"],
  ],
  ["accepts a csv path with a space inside", (c) => (c.sinkConfig.sinks = [{ sinkType: "csv", path: "out/my rows.csv" }]), []],
  ["refuses a numeric csv path", (c) => (c.sinkConfig.sinks = [{ sinkType: "csv", path: 1 }]), ["sinkConfig.sinks[0].path must be a string"]],
  ["names the index of the sink that breaks a rule", (c) => c.sinkConfig.sinks.push({ sinkType: "csv" }), ["sinkConfig.sinks[1].path is required"]],
  ["refuses a numeric campaignId", (c) => pointwise(c, { campaignId: 1234 }), ["sinkConfig.sinks[0].campaignId must be a string"]],
  ...["xab12-cd34", "ab12-cd34x", "ab12cd34", "ab1-cd345"].map((id): [string, (c: Config) => void, string[]] => [
    `refuses the campaignId ${id}`,
    (c) => pointwise(c, { campaignId: id }),
    ["sinkConfig.sinks[0].campaignId must be a campaign id of the form xxxx-xxxx (lowercase letters and digits)"],
  ]),
  ["refuses a batchSize given as text", (c) => pointwise(c, { batchSize: "100" }), ["sinkConfig.sinks[0].batchSize must be a number"]],
  ["refuses a fractional batchSize", (c) => pointwise(c, { batchSize: 10.5 }), ["sinkConfig.sinks[0].batchSize must be an integer"]],
  ["refuses a batchSize of 1e300 as too large only", (c) => pointwise(c, { batchSize: 1e300 }), ["sinkConfig.sinks[0].batchSize must be at most 1000"]],
  ["accepts a batchSize of 1", (c) => pointwise(c, { batchSize: 1 }), []],
  ["refuses a batchSize of 0", (c) => pointwise(c, { batchSize: 0 }), ["sinkConfig.sinks[0].batchSize must be at least 1"]],
  ["accepts a batchSize of 1000", (c) => pointwise(c, { batchSize: 1000 }), []],
  ["refuses a numeric baseUrl", (c) => pointwise(c, { baseUrl: 443 }), ["sinkConfig.sinks[0].baseUrl must be a string"]],
  // fetch refuses a URL with credentials, quoting it whole: the key goes in POINTWISE_API_KEY.
  ...["https://user:s3cretpw@api.pointwise.example", "https://s3cretpw@api.pointwise.example/v1", "http://:s3cretpw@127.0.0.1:3000"].map(
    (baseUrl): [string, (c: Config) => void, string[]] => [
      `refuses the baseUrl ${baseUrl.replace("s3cretpw", "***")}, which holds credentials`,
      (c) => pointwise(c, { baseUrl }),
      ["sinkConfig.sinks[0].baseUrl must not hold a user name or password: send the key in POINTWISE_API_KEY"],
    ],
  ),
  [
    "tells a baseUrl that does not parse its shape rather than its credentials",
    (c) => pointwise(c, { baseUrl: "https://user:s3cretpw@api pointwise.example" }),
    ["sinkConfig.sinks[0].baseUrl must be a well-formed URL with a host: http(s)://host[:port][/path]"],
  ],
  ["accepts a baseUrl with a port and a path", (c) => pointwise(c, { baseUrl: "http://127.0.0.1:3000/ingest/" }), []],
  ["refuses missing events", (c) => pointwise(c, { events: undefined }), ["sinkConfig.sinks[0].events is required"]],
  ["refuses events that are not an object", (c) => pointwise(c, { events: ["swap"] }), ["sinkConfig.sinks[0].events must be an object"]],
  ["accepts activity names with digits, '_' and '-'", (c) => pointwise(c, { events: { "lp_v2-hold": { regEventId: UUID, amount: "count" } } }), []],
  ...["Swap", "1swap", "swap!", "my swap"].map((name): [string, (c: Config) => void, string[]] => [
    `refuses the activity name ${JSON.stringify(name)}`,
    (c) => pointwise(c, { events: { [name]: { regEventId: UUID, amount: "usd" } } }),
    [`sinkConfig.sinks[0].events.${name} must be a lowercase activity name (a letter, then lowercase letters, digits, '_' or '-')`],
  ]),
  ["refuses a mapping that is not an object", (c) => mapping(c, UUID), ["sinkConfig.sinks[0].events.swap must be an object"]],
  ["refuses a mapping without regEventId", (c) => mapping(c, { amount: "usd" }), ["sinkConfig.sinks[0].events.swap.regEventId is required"]],
  ["refuses a numeric regEventId", (c) => mapping(c, { regEventId: 7, amount: "usd" }), ["sinkConfig.sinks[0].events.swap.regEventId must be a string"]],
  ["accepts a regEventId in capitals", (c) => mapping(c, { regEventId: UUID.toUpperCase(), amount: "usd" }), []],
  ...[`x${UUID}`, `${UUID}0`, UUID.slice(0, -1)].map((id): [string, (c: Config) => void, string[]] => [
    `refuses the regEventId ${id}`,
    (c) => mapping(c, { regEventId: id, amount: "usd" }),
    ["sinkConfig.sinks[0].events.swap.regEventId must be a UUID"],
  ]),
  ["refuses a mapping without amount", (c) => mapping(c, { regEventId: UUID }), ["sinkConfig.sinks[0].events.swap.amount is required"]],
  ["refuses an unknown amount", (c) => mapping(c, { regEventId: UUID, amount: "eur" }), [AMOUNTS]],
  [
    "refuses an unknown rowType",
    (c) => mapping(c, { regEventId: UUID, amount: "usd", rowType: "block" }),
    ["sinkConfig.sinks[0].events.swap.rowType must be one of window, action"],
  ],
  [
    "refuses amountHours on actions",
    (c) => mapping(c, { regEventId: UUID, amount: "amountHours", rowType: "action" }),
    ["sinkConfig.sinks[0].events.swap.amount amountHours applies only to rowType window"],
  ],
  [
    "refuses count on windows",
    (c) => mapping(c, { regEventId: UUID, amount: "count", rowType: "window" }),
    ["sinkConfig.sinks[0].events.swap.amount count applies only to rowType action"],
  ],
  ["accepts usd on windows", (c) => mapping(c, { regEventId: UUID, amount: "usd", rowType: "window" }), []],
  ["accepts amount on windows", (c) => mapping(c, { regEventId: UUID, amount: "amount", rowType: "window" }), []],
  ["accepts usdHours on windows", (c) => mapping(c, { regEventId: UUID, amount: "usdHours", rowType: "window" }), []],
];

describe("sink config", () => {
  it.each(rows)("%s", (_name, edit, expected) => {
    expect(messages(edit)).toEqual(expected);
  });

  it("prints key=value lines unless json is set", () => {
    const result = validateEdited((c) => (c.sinkConfig.sinks = [{ sinkType: "stdout" }]));
    expect(result.ok && result.config.sinkConfig.sinks).toEqual([{ sinkType: "stdout", json: false }]);
  });

  it("sends batches of 1000 events when batchSize is omitted", () => {
    const result = validateEdited((c) => pointwise(c, {}));
    expect(result.ok && result.config.sinkConfig.sinks[0]).toMatchObject({ batchSize: 1000 });
  });

  // The docs: rowType defaults to window for usdHours and amountHours, else action.
  it.each([
    ["usd", "action"],
    ["usdHours", "window"],
    ["amount", "action"],
    ["amountHours", "window"],
    ["count", "action"],
  ])("maps %s to %s rows when rowType is omitted", (amount, rowType) => {
    const result = validateEdited((c) => mapping(c, { regEventId: UUID, amount }));
    expect(result.ok && result.config.sinkConfig.sinks[0]).toMatchObject({ events: { swap: { regEventId: UUID, amount, rowType } } });
  });

  it("keeps an explicit rowType", () => {
    const result = validateEdited((c) => mapping(c, { regEventId: UUID, amount: "usd", rowType: "window" }));
    expect(result.ok && result.config.sinkConfig.sinks[0]).toMatchObject({ events: { swap: { rowType: "window" } } });
  });

  it("keeps the sinks in the order written", () => {
    const result = validateEdited(
      (c) =>
        (c.sinkConfig.sinks = [
          { sinkType: "csv", path: "a.csv" },
          { sinkType: "stdout", json: true },
        ]),
    );
    expect(result.ok && result.config.sinkConfig.sinks).toEqual([
      { sinkType: "csv", path: "a.csv" },
      { sinkType: "stdout", json: true },
    ]);
  });
});
