export { devMailRoutes, type DevMailRoutes } from "./mail.routes";
export { authMailNotices, invitationNotice } from "./mail.notices";
export {
  createMailQueue,
  createMailTransport,
  SMTP_TIMEOUTS,
  type MailQueue,
  type MailTransport,
} from "./mail.service";
export {
  claimMail,
  findDueMails,
  markMailFailed,
  markMailSent,
  purgeMailsCreatedBefore,
  type ClaimedMail,
} from "./mail.repository";
export * as mailTemplates from "./mail.templates";
export type { OutgoingMail, DevMail } from "./mail.schemas";
export { mailBacklogMetrics } from "./mail.metrics";
