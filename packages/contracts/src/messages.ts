/**
 * Validation and result messages, worded as seed-spec.md sections 5 and 8 give them, spelling
 * corrected (PRODUCT.md D11). The server and the web forms show the same text.
 */
export const validationMessages = {
  required: 'field should not be empty',
  emailInvalid: 'email is not valid',
  numberInvalid: 'number is not valid',
  passwordTooShort: 'password should be at least 8 characters',
  passwordTooLong: 'password should be at most 128 characters',
  passwordTooCommon: 'this password is too common',
  passwordsDoNotMatch: 'passwords do not match',
  imageTypeInvalid: 'Image mime type is not valid',
  tooLong: 'this is too long',
  contactName: 'Please enter your name',
  contactEmail: 'Please enter your email',
  contactPhone: 'Please enter your number',
  contactSubject: 'Please enter your subject',
  contactMessage: 'Write your message',
} as const;

export const resultMessages = {
  networkError: 'network error',
  unexpectedApplicationError: 'Unexpected Application Error!',
  sandboxBanner: 'Sandbox: no real money',
} as const;
