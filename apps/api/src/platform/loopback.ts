import type { FastifyRequest } from 'fastify';

const loopbackAddresses = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * A request from this machine: the socket itself comes from loopback, and, when that socket is a
 * trusted proxy on the same host, the client the proxy saw is on loopback too. Forwarding headers
 * can only take this away, never grant it: a remote caller who writes `X-Forwarded-For: 127.0.0.1`
 * still arrives on a remote socket.
 */
export function isLoopbackRequest(request: FastifyRequest): boolean {
  const socketAddress = request.raw.socket.remoteAddress;
  return socketAddress !== undefined && loopbackAddresses.has(socketAddress) && loopbackAddresses.has(request.ip);
}
