import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const oneYearSeconds = 31_536_000;

/**
 * Security headers on every answer (ASVS 3.4): a CSP without inline scripts, no framing, no
 * sniffing, no referrer, HSTS over HTTPS, and `no-store` on every API answer (14.3.2).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
      },
    },
    // HSTS is added below only when the request arrived over HTTPS; on plain http it is meaningless.
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', `max-age=${oneYearSeconds}; includeSubDomains`);
    }
    if (request.url.startsWith('/api/') || request.url.startsWith('/internal/') || request.url === '/metrics') {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
