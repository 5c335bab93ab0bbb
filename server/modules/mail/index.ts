export { devMailRoutes } from "./mail.routes";
export { createMailQueue, createMailTransport, type MailQueue, type MailTransport } from "./mail.service";
export { claimDueMails, markMailFailed, markMailSent } from "./mail.repository";
export * as mailTemplates from "./mail.templates";
export type { OutgoingMail, DevMail } from "./mail.schemas";
