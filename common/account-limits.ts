/** Limits shared by the server's better-auth options and every form in the web app (plain values: no zod). */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
export const USERNAME_PATTERN = /^[a-zA-Z0-9_.]+$/;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;
/** The longest address SMTP can deliver to (RFC 5321). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * Limits of the values no form asks for (ids, tokens, redirect URLs, free text), so the server refuses any
 * unbounded field. better-auth's ids are 32 characters; OAuth id tokens (signed JWTs) run to a few KB.
 */
export const ID_MAX_LENGTH = 255;
export const TOKEN_MAX_LENGTH = 8192;
export const URL_MAX_LENGTH = 2048;
export const TEXT_MAX_LENGTH = 1000;
