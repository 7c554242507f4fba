import type { FastifyInstance } from 'fastify';
import { hasHiddenCharacters } from '@strongroom/contracts/fields.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { AppError } from './errors.ts';

/**
 * Bodies and query strings refuse hidden characters in their contract schemas; a path parameter
 * is often a bare string that goes straight to a lookup, and PostgreSQL answers a NUL in text with
 * an error (a 500). One check here covers every route, present and future, before validation.
 */
export function refuseHiddenCharactersInPaths(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const params = request.params as Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(params ?? {})) {
      if (typeof value === 'string' && hasHiddenCharacters(value)) {
        throw new AppError('validation_failed', 'Some fields are not valid', { fields: { [name]: validationMessages.hiddenCharacters } });
      }
    }
  });
}
