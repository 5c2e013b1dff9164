// Sends sign-in codes: the Mailer interface, the log mailer (development) and the SMTP mailer.
import { RetryableError } from "@pointwise/errors";
import type { Logger } from "@pointwise/logger";
import { createTransport } from "nodemailer";

/** One sign-in code to deliver to one address. */
export interface CodeMail {
  to: string;
  code: string;
  campaignName: string;
  expiresInS: number;
  /** `sign-in` (the default), or `link`: the code adds the address to an existing account. */
  purpose?: "sign-in" | "link";
}

/** Delivers sign-in codes; implementations are chosen by PORTAL_MAILER. */
export interface Mailer {
  sendCode(mail: CodeMail): Promise<void>;
}

/** A mailer that writes each code to the log at info level (`msg: "sign-in code"`), for development. */
export function createLogMailer(logger: Logger): Mailer {
  return {
    async sendCode(mail) {
      const msg = mail.purpose === "link" ? "link code" : "sign-in code";
      logger.info({ to: mail.to, code: mail.code, campaign: mail.campaignName, expires_in_s: mail.expiresInS }, msg);
    },
  };
}

/** Where and as whom the SMTP mailer sends. */
export interface SmtpSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://...:465` (TLS from the start). */
  url: string;
  from: string;
}

/** A mailer that sends each code as a plain-text message through an SMTP server (nodemailer). */
export function createSmtpMailer(settings: SmtpSettings): Mailer & { close(): void } {
  const transport = createTransport(settings.url);
  return {
    async sendCode(mail) {
      const minutes = Math.round(mail.expiresInS / 60);
      const link = mail.purpose === "link";
      const what = link ? "code to add this address to your account" : "sign-in code";
      const warning = link
        ? "If you did not ask to add this address to an account, do not give the code to anyone; the address stays as it is."
        : "If you did not ask for it, ignore this message.";
      try {
        await transport.sendMail({
          from: settings.from,
          to: mail.to,
          subject: `Your ${what} for ${mail.campaignName}: ${mail.code}`,
          text: `Your ${what} for ${mail.campaignName} is ${mail.code}.\n\nIt works once, for ${minutes} minutes. ${warning}\n`,
        });
      } catch (err) {
        throw new RetryableError("mailer-unavailable", "the code could not be sent; try again", { cause: err });
      }
    },
    close: () => transport.close(),
  };
}
