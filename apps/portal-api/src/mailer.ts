// Sends sign-in codes: the Mailer interface and the log mailer (development and tests).
import type { Logger } from "@pointwise/logger";

/** One sign-in code to deliver to one address. */
export interface CodeMail {
  to: string;
  code: string;
  campaignName: string;
  expiresInS: number;
}

/** Delivers sign-in codes; implementations are chosen by PORTAL_MAILER. */
export interface Mailer {
  sendCode(mail: CodeMail): Promise<void>;
}

/** A mailer that writes each code to the log at info level (`msg: "sign-in code"`), for development. */
export function createLogMailer(logger: Logger): Mailer {
  return {
    async sendCode(mail) {
      logger.info({ to: mail.to, code: mail.code, campaign: mail.campaignName, expires_in_s: mail.expiresInS }, "sign-in code");
    },
  };
}
