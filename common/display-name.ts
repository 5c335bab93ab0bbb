import { z } from "zod";

/**
 * The one rule for every name a person gives and others see: a user's name, an organization's, a team's.
 * Names end up in pages, e-mails, admin lists and CSV exports, so text that looks like something else is
 * refused: control characters, characters that reorder what follows them, content nobody can see.
 */

/** At most this many characters (code points, so an emoji counts once) after normalisation. */
export const DISPLAY_NAME_MAX_LENGTH = 100;
/**
 * The bound on a name as sent, before normalisation: NFC may shorten decomposed text, and trimming removes
 * padding, but a megabyte of spaces is refused before either runs.
 */
export const DISPLAY_NAME_RAW_MAX_LENGTH = DISPLAY_NAME_MAX_LENGTH * 4;

export const DISPLAY_NAME_MESSAGES = {
  empty: "Enter a name",
  tooLong: `Use at most ${DISPLAY_NAME_MAX_LENGTH} characters`,
  brokenCharacter: "Remove the broken character (an unpaired surrogate)",
  controlCharacter: "Remove control characters such as tabs and line breaks",
  directionControl: "Remove text-direction control characters",
  invisible: "Use at least one visible character",
} as const;

// Lone surrogates (with the u flag a lone half is matched as a code point of category Cs).
const BROKEN = /\p{Cs}/u;
// C0, DEL and C1 controls.
const CONTROL = /\p{Cc}/u;
/**
 * Embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069) and the direction marks (U+200E, U+200F,
 * U+061C): `Acme\u202Egpj.exe` shows as "Acmeexe.jpg". The web isolates names itself, so no name needs them.
 */
const DIRECTION = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/**
 * What draws nothing: white space, format characters (zero-width space and joiners, U+FEFF, soft hyphen), the
 * other default-ignorable code points (Hangul fillers, variation selectors) and the braille blank. A name may
 * hold them (a joiner inside an emoji or a Persian word) but not be made only of them.
 */
const INVISIBLE = /^[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/** A name as stored: NFC, without surrounding white space (whatever Unicode calls white space). */
export function normaliseDisplayName(value: string): string {
  return value.normalize("NFC").trim();
}

const lengthOf = (value: string) => [...value].length;

/** Why a normalised name is refused, or undefined when it is fine. `emptyMessage` is what an empty one says. */
export function displayNameProblem(name: string, emptyMessage?: string): string | undefined {
  if (name.length === 0) return emptyMessage ?? DISPLAY_NAME_MESSAGES.empty;
  if (lengthOf(name) > DISPLAY_NAME_MAX_LENGTH) return DISPLAY_NAME_MESSAGES.tooLong;
  if (BROKEN.test(name)) return DISPLAY_NAME_MESSAGES.brokenCharacter;
  if (CONTROL.test(name)) return DISPLAY_NAME_MESSAGES.controlCharacter;
  if (DIRECTION.test(name)) return DISPLAY_NAME_MESSAGES.directionControl;
  if (INVISIBLE.test(name)) return DISPLAY_NAME_MESSAGES.invisible;
  return undefined;
}

const REMOVABLE = /\p{Cs}|[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu;

/**
 * A display name made from text nobody typed into our forms (a sign-in provider's profile): controls become
 * spaces, direction characters and lone surrogates go, the rest is normalised and cut to the maximum length.
 * Undefined when nothing visible is left, so the caller picks another name.
 */
export function displayNameFrom(text: string): string | undefined {
  const cleaned = text.replace(/\p{Cc}/gu, " ").replace(REMOVABLE, "");
  const name = normaliseDisplayName([...normaliseDisplayName(cleaned)].slice(0, DISPLAY_NAME_MAX_LENGTH).join(""));
  return displayNameProblem(name) === undefined ? name : undefined;
}

const displayNameSchemas = new WeakSet<z.ZodType>();

/**
 * The display-name schema with its own message for an empty name ("Enter your name", "Enter a team name");
 * every other message is the same for every name. It outputs the normalised name.
 */
export function displayNameSchemaWith(emptyMessage: string) {
  const schema = z
    .string()
    .max(DISPLAY_NAME_RAW_MAX_LENGTH, { message: DISPLAY_NAME_MESSAGES.tooLong, abort: true })
    .overwrite(normaliseDisplayName)
    .superRefine((name, ctx) => {
      const problem = displayNameProblem(name, emptyMessage);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
  displayNameSchemas.add(schema);
  return schema;
}

/** Every display name: NFC, trimmed, 1–100 characters, something visible, no control or direction characters. */
export const displayNameSchema = displayNameSchemaWith(DISPLAY_NAME_MESSAGES.empty);

/** Whether `schema` is a display-name schema: the server stores the normalised value of such fields. */
export function isDisplayNameSchema(schema: z.ZodType): boolean {
  return displayNameSchemas.has(schema);
}
