import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer.ts';

const lineSchema = z.object({ id: z.uuid(), amountCents: z.number().int(), createdAt: z.iso.datetime(), party: z.string().nullable() });
const serialize = responseSerializerCompiler({ schema: z.object({ items: z.array(lineSchema) }), method: 'GET', url: '/transactions' });

describe('the answer serializer', () => {
  it('writes only the fields the contract names, whatever the handler added', () => {
    const line = { id: '7b0e4a52-2a51-4b1e-9d0e-2f6b7d3c9a10', amountCents: -500, createdAt: '2026-11-30T07:00:00.000Z', party: null };
    expect(JSON.parse(serialize({ items: [{ ...line, passwordHash: 'secret', internalNote: 'x' }] }))).toEqual({ items: [line] });
  });

  it('refuses an answer that breaks its contract, naming the route, so the client gets a 500 and not the wrong data', () => {
    let thrown: unknown;
    try {
      serialize({ items: [{ id: 'not-a-uuid', amountCents: 1.5, createdAt: 'yesterday', party: null }] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown instanceof Error && isResponseSerializationError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ method: 'GET', url: '/transactions' });
  });

  it('is given a zod schema for every answer', () => {
    expect(() => responseSerializerCompiler({ schema: { type: 'object' }, method: 'GET', url: '/x' })).toThrow(/has no zod schema/);
  });
});
