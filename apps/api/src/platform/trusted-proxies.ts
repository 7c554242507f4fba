import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.ts';

/** Whether a proxy may be believed: given an address and its position counted from the socket (0). */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as Fastify takes it (decision 020). A list of proxy addresses is compiled with the
 * library Fastify itself uses for one: only those are believed, wherever they appear. A number of
 * proxies becomes "the first n hops from the socket", as Express counts them: Fastify 5 itself
 * treats a number as trusting nobody, because a count cannot tell whether the socket really is the
 * proxy. So a count is for a server that only the proxy can reach (HOST=127.0.0.1 behind a proxy on
 * the same host, or a firewall); anywhere else, list the proxies. The same function decides for
 * Fastify (the client's address and protocol) and for the request id (logging.ts).
 */
export function trustProxyFor(setting: Config['trustProxy']): TrustProxy | false {
  if (setting === false || setting === 0) return false;
  if (typeof setting !== 'number') return proxyAddr.compile(setting);
  const trustedHops = setting;
  return (_address, hop) => hop < trustedHops;
}

/**
 * Whether the socket's peer is a proxy the operator declared, so that what it writes in the
 * request's headers may be believed. It reads the socket, because Fastify asks for a request's id
 * before it works out the client's address.
 */
export function fromTrustedProxy(trustProxy: TrustProxy | false, socketAddress: string | undefined): boolean {
  return trustProxy !== false && socketAddress !== undefined && trustProxy(socketAddress, 0);
}
