import { z } from 'zod';
import { validationMessages } from './messages.ts';

/**
 * Field schemas shared by the server's validation and the web's forms, so both give the same
 * message for the same input.
 */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailField = z
  .string()
  .trim()
  .min(1, validationMessages.required)
  .max(254, validationMessages.tooLong)
  .regex(emailPattern, validationMessages.emailInvalid);

export function textField(maxLength: number, requiredMessage: string = validationMessages.required) {
  return z.string().trim().min(1, requiredMessage).max(maxLength, validationMessages.tooLong);
}

export const numberTextField = z
  .string()
  .trim()
  .min(1, validationMessages.required)
  .regex(/\d/, validationMessages.numberInvalid);
