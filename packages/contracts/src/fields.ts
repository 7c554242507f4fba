import { z } from 'zod';
import { validationMessages } from './messages.ts';

/**
 * Field schemas shared by the server's validation and the web's forms, so both give the same
 * message for the same input.
 */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Characters no text field takes, whoever sends it:
 * - C0 and C1 control characters other than tab and newline. PostgreSQL cannot store a NUL in
 *   text (a NUL used to be a 500), and the others (escape, carriage return, next line...) only
 *   serve to make text print or log differently from what it is;
 * - the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which
 *   make a payee name or a message read differently from the characters it holds (a "Trojan
 *   Source" spoof). Right-to-left scripts need none of them: Arabic or Hebrew text is kept;
 * - the invisible direction marks (U+200E, U+200F, U+061C): zero-width, they let "Ada" and
 *   "Ada" with a mark in it be two different names that look the same, and move punctuation and
 *   digits beside them. A right-to-left text reads right without them, its direction coming
 *   from its letters;
 * - the zero-width space, word joiner and invisible operators (U+200B, U+2060-U+2064) and the
 *   byte order mark (U+FEFF): no script needs them inside a field, and they hide text from the
 *   reader (a name that looks like another, a word a filter or a search no longer finds).
 * The zero-width non-joiner and joiner (U+200C, U+200D) are kept: Persian and the Indic scripts
 * spell words with them, and emoji sequences (a family, a rainbow flag) are joined by U+200D.
 * Refused, not stripped: a stored name is then exactly what its owner typed.
 */
const hiddenCharacterClass = '\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u061C\\u200B\\u200E\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF';
const withoutHiddenCharacters = new RegExp(`^[^${hiddenCharacterClass}]*$`);

/**
 * A string without hidden characters: the start of every text field of every request. The
 * check comes first, so such input gets this one clear message rather than a puzzling one.
 */
export function plainString() {
  return z.string().regex(withoutHiddenCharacters, validationMessages.hiddenCharacters);
}

export const emailField = plainString()
  .trim()
  .min(1, validationMessages.required)
  .max(254, validationMessages.tooLong)
  .regex(emailPattern, validationMessages.emailInvalid);

export function textField(maxLength: number, requiredMessage: string = validationMessages.required) {
  return plainString().trim().min(1, requiredMessage).max(maxLength, validationMessages.tooLong);
}

/** What a field says when its text has the wrong number of lines. */
export const lineMessages = {
  oneLine: 'keep this on one line',
  tooManyLines: (maxLines: number) => `use at most ${maxLines} lines`,
} as const;

/**
 * A single-line field (a city, a number): no line break either, which the hidden-character check
 * lets through for the fields where text is free. The break gets its own message, since it is not
 * hidden from the person who typed it, and comes first: a CRLF is a line break, not a hidden character.
 */
export function singleLineTextField(maxLength: number, requiredMessage: string = validationMessages.required) {
  return z
    .string()
    .regex(/^[^\r\n]*$/, lineMessages.oneLine)
    .regex(withoutHiddenCharacters, validationMessages.hiddenCharacters)
    .trim()
    .min(1, requiredMessage)
    .max(maxLength, validationMessages.tooLong);
}

/**
 * A multi-line field (a street of two lines). A textarea posted as a form sends its line breaks as
 * CRLF (HTML's form encoding), and an old Mac's CR alone: both become a line feed before the
 * hidden-character check, which refuses a carriage return anywhere else. Blank lines count as lines.
 */
export function multiLineTextField(maxLength: number, maxLines: number, requiredMessage: string = validationMessages.required) {
  return z
    .string()
    .overwrite((text) => text.replace(/\r\n?/g, '\n'))
    .regex(withoutHiddenCharacters, validationMessages.hiddenCharacters)
    .trim()
    .min(1, requiredMessage)
    .max(maxLength, validationMessages.tooLong)
    .refine((text) => text.split('\n').length <= maxLines, lineMessages.tooManyLines(maxLines));
}

export const numberTextField = plainString().trim().min(1, validationMessages.required).regex(/\d/, validationMessages.numberInvalid);

/** For text that arrives outside a schema (a path parameter): true when it holds a hidden character. */
export function hasHiddenCharacters(text: string): boolean {
  return !withoutHiddenCharacters.test(text);
}
