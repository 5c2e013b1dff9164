// The SMTP mailer delivers sign-in codes to a real SMTP server (smtp-server) on 127.0.0.1; a server that is down is 503 mailer-unavailable.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { freePort } from "@pointwise/testkit";
import { SMTPServer } from "smtp-server";
import { createSmtpMailer } from "../src/mailer";
import { type Harness, startPortal } from "./harness";

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  data: string;
}

const received: Received[] = [];
let server: SMTPServer;
let port: number;
let h: Harness;
let down: Harness;
beforeAll(async () => {
  port = await freePort();
  server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === "portal" && auth.password === "mail-pass") callback(null, { user: auth.username });
      else callback(new Error("invalid credentials"));
    },
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (chunk: Buffer) => {
        data += chunk.toString();
      });
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  h = await startPortal();
  h.deps.mailer = createSmtpMailer({ url: `smtp://portal:mail-pass@127.0.0.1:${port}`, from: "Season <no-reply@portal.test>" });
  down = await startPortal();
  down.deps.mailer = createSmtpMailer({ url: `smtp://portal:mail-pass@127.0.0.1:${await freePort()}`, from: "no-reply@portal.test" });
});
afterAll(async () => {
  await h?.close();
  await down?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("SMTP mailer", () => {
  it("sends the code as the configured sender, signed in to the server, and the code signs in", async () => {
    const sent = await h.call("POST", "/auth/email/start", { campaign_id: h.campaignId, email: "Lin@Example.org" });
    expect(sent.status).toBe(202);
    const mail = received[received.length - 1] as Received;
    expect([mail.from, mail.to, mail.user]).toEqual(["no-reply@portal.test", ["lin@example.org"], "portal"]);
    const code = /sign-in code for Season is ([0-9]{6})\./.exec(mail.data)?.[1] as string;
    expect(code).toMatch(/^[0-9]{6}$/);
    const signedIn = await h.call("POST", "/auth/email/verify", { campaign_id: h.campaignId, email: "lin@example.org", code });
    expect(signedIn.status).toBe(200);
  });

  it("answers 503 mailer-unavailable when the SMTP server cannot be reached", async () => {
    const res = await down.call("POST", "/auth/email/start", { campaign_id: down.campaignId, email: "a@example.org" });
    expect([res.status, res.body.error.code]).toEqual([503, "mailer-unavailable"]);
  });
});
