import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isLoopbackRequest } from '../../platform/loopback.ts';
import type { OpsContext, OpsResult } from '../../platform/ops-command.ts';

const maximumArguments = 64;

export interface OpsRouteOptions {
  context: OpsContext;
  token: string;
  run(context: OpsContext, name: string, args: string[]): Promise<OpsResult>;
}

/**
 * The loopback-only door the ops CLI uses while this server owns the embedded database (PGlite
 * allows one process). It needs the token the server wrote, readable only by the operator, into
 * DATA_DIR; anyone else, and anyone not on this machine, gets a plain 404.
 */
export function opsRoutes(options: OpsRouteOptions): FastifyPluginAsyncZod {
  const expected = Buffer.from(`Bearer ${options.token}`);
  return async (app) => {
    app.post(
      '/internal/ops/:command',
      {
        // The door is checked before the body is validated: a stranger learns nothing from a 400.
        preValidation: async (request, reply) => {
          const presented = Buffer.from(request.headers.authorization ?? '');
          const authorised = isLoopbackRequest(request) && presented.length === expected.length && timingSafeEqual(presented, expected);
          if (!authorised) {
            reply.callNotFound();
            return reply;
          }
        },
        schema: {
          hide: true,
          params: z.object({ command: z.string().regex(/^[a-z][a-z-]{0,40}$/) }),
          body: z.object({ args: z.array(z.string().max(1_000)).max(maximumArguments), workingDirectory: z.string().max(4_096).optional() }),
          response: { 200: z.object({ exitCode: z.number().int(), output: z.string(), notice: z.string().optional() }) },
        },
      },
      async (request) => {
        const context = { ...options.context, workingDirectory: request.body.workingDirectory ?? options.context.workingDirectory };
        return options.run(context, request.params.command, request.body.args);
      },
    );
  };
}
