// runService as a real process: SIGTERM with keep-alive connections busy and idle, and how start failures are logged.
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
// testkit is not a declared dependency of this package, as in bus and db: the workspace resolves it for tests.
import { freePort, waitUntil } from "@pointwise/testkit";

jest.setTimeout(30_000);

const FIXTURE = path.join(__dirname, "lifecycle.fixture.ts");

interface Fixture {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function startFixture(...args: string[]): Fixture {
  let out = "";
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, ...args], {
    cwd: __dirname,
    env: { PATH: process.env.PATH ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

const started: Fixture[] = [];
afterEach(() => {
  for (const f of started.splice(0)) if (f.child.exitCode === null) f.child.kill("SIGKILL");
});

function lines(f: Fixture): Record<string, unknown>[] {
  return f
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Waits until the fixture has written `msg`. */
const logged = (f: Fixture, msg: string) => waitUntil(() => f.output().includes(`"msg":"${msg}"`), 20_000, msg);

/** Waits until the fixture has read `bytes` bytes of one connection (its own log of every read). */
const hasRead = (f: Fixture, bytes: number) =>
  waitUntil(() => lines(f).some((l) => l.msg === "fixture read" && l.bytes === bytes), 20_000, `the fixture to read ${bytes} bytes`);

/** A serving fixture and a connection to it; `sent` is what the connection has sent so far (nothing). */
async function servingFixture(): Promise<{ fixture: Fixture; socket: net.Socket; sent: number }> {
  const port = await freePort();
  const fixture = startFixture("serve", String(port));
  started.push(fixture);
  await logged(fixture, "fixture listening");
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return { fixture, socket, sent: 0 };
}

/** Resolves with the first HTTP response read from `socket` once its body (Content-Length) is complete. */
function readResponse(socket: net.Socket): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    let data = "";
    const onData = (chunk: Buffer) => {
      data += chunk.toString("latin1");
      const split = data.indexOf("\r\n\r\n");
      if (split < 0) return;
      const head = data.slice(0, split);
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      const body = data.slice(split + 4);
      if (body.length < length) return;
      socket.off("data", onData);
      resolve({ head, body });
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
}

/** A serving fixture and a keep-alive connection to it on which one request has been answered (and kept alive). */
async function answeredKeepAlive(): Promise<{ fixture: Fixture; socket: net.Socket; socketClosed: Promise<void>; sent: number }> {
  const { fixture, socket } = await servingFixture();
  const socketClosed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const first = readResponse(socket);
  const request = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n";
  socket.write(request);
  expect((await first).head).toMatch(/connection: keep-alive/i);
  return { fixture, socket, socketClosed, sent: request.length };
}

it("answers a keep-alive request in flight at SIGTERM with Connection: close and exits 0 promptly", async () => {
  const { fixture, socket } = await servingFixture();
  const socketClosed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  // A first request makes it a keep-alive connection the server has answered before.
  const send = (text: string) => socket.write(text);
  const body = '{"n":1}';
  const request = `POST /echo HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const first = readResponse(socket);
  send(request + body);
  expect((await first).head).toMatch(/connection: keep-alive/i);

  // The second request is in flight (half its body sent) when SIGTERM arrives.
  const second = readResponse(socket);
  send(request + body.slice(0, 3));
  await hasRead(fixture, 2 * request.length + body.length + 3);
  const signalledAt = Date.now();
  fixture.child.kill("SIGTERM");
  await logged(fixture, "fixture stopping");
  send(body.slice(3));

  const answer = await second;
  expect(answer.head).toMatch(/^HTTP\/1\.1 200/);
  expect(answer.head).toMatch(/connection: close/i);
  expect(JSON.parse(answer.body)).toEqual({ n: 1 });
  await socketClosed;
  expect(await fixture.exited).toBe(0);
  // Far below the 15 s stop timeout; before the fix the connection held the process until that timer.
  expect(Date.now() - signalledAt).toBeLessThan(8000);
  expect(fixture.output()).not.toContain("did not stop in time");
  expect(fixture.output()).toContain('"msg":"fixture stopped"');
});

it.each([
  ["a new connection", servingFixture],
  ["a keep-alive connection it answered before", answeredKeepAlive],
])("answers a request whose headers were still arriving at SIGTERM on %s, with Connection: close, and exits 0", async (_where, open) => {
  const { fixture, socket, sent } = await open();
  const answer = readResponse(socket);
  const partial = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
  socket.write(partial);
  await hasRead(fixture, sent + partial.length);
  fixture.child.kill("SIGTERM");
  await logged(fixture, "fixture stopping");
  socket.write("Connection: keep-alive\r\n\r\n");
  const { head } = await answer;
  expect(head).toMatch(/^HTTP\/1\.1 200/);
  expect(head).toMatch(/connection: close/i);
  expect(await fixture.exited).toBe(0);
  expect(fixture.output()).not.toContain("did not stop in time");
});

it("closes a keep-alive connection that is idle at SIGTERM at once, and exits 0 without waiting for its client", async () => {
  const { fixture, socket, socketClosed } = await answeredKeepAlive();
  let after = "";
  socket.on("data", (chunk: Buffer) => {
    after += chunk.toString("latin1");
  });

  // The client keeps its side open: only the server can end the connection before keepAliveTimeout (65 s).
  fixture.child.kill("SIGTERM");
  await socketClosed;
  expect(after).toBe("");
  expect(await fixture.exited).toBe(0);
  expect(fixture.output()).not.toContain("did not stop in time");
  expect(fixture.output()).toContain('"msg":"fixture stopped"');
});

it("logs a ConfigError at start as its code and message, without a stack, and exits 1", async () => {
  const fixture = startFixture("config-error");
  started.push(fixture);
  expect(await fixture.exited).toBe(1);
  const fatal = lines(fixture).find((l) => l.level === "fatal");
  expect(fatal).toMatchObject({
    code: "config-invalid",
    msg: "fixture failed to start: Invalid environment: PORT must be a number; REDIS_URL is required",
  });
  expect(fixture.output()).not.toContain("stack");
  expect(fixture.output()).not.toContain("    at ");
});

it("keeps the stack of an unexpected start failure", async () => {
  const fixture = startFixture("crash");
  started.push(fixture);
  expect(await fixture.exited).toBe(1);
  const fatal = lines(fixture).find((l) => l.level === "fatal") as { err?: { message?: string; stack?: string } } | undefined;
  expect(fatal?.err?.message).toBe("something unexpected");
  expect(fatal?.err?.stack).toContain("lifecycle.fixture.ts");
});
