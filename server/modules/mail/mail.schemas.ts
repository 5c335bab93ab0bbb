export { listDevMailQuerySchema, type DevMail, type ListDevMailQuery } from "../../../common/mail.schemas";

export type OutgoingMail = { to: string; subject: string; html: string; text: string };
