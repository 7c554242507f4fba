import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
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

/**
 * An id in a path is any short string: a malformed one answers 404 like an unknown one (it names
 * nothing), not 400. Repositories ask `isUuid` before they query a uuid column with it.
 */
export const idParams = z.object({ id: z.string().max(64) });

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return uuidPattern.test(text);
}
