import type { Config } from '../config.ts';

/** Fastify's trustProxy: given an address and its position counted from the socket (0). */
type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY as Fastify takes it (decision 020). A list of proxy addresses is handed over as is:
 * only those are believed, wherever they appear. A number of proxies becomes "the first n hops
 * from the socket", as Express counts them: Fastify 5 itself treats a number as trusting nobody,
 * because a count cannot tell whether the socket really is the proxy. So a count is for a server
 * that only the proxy can reach (HOST=127.0.0.1 behind a proxy on the same host, or a firewall);
 * anywhere else, list the proxies.
 */
export function trustProxyFor(setting: Config['trustProxy']): TrustProxy {
  if (typeof setting !== 'number') return setting;
  if (setting === 0) return false;
  const trustedHops = setting;
  return (_address, hop) => hop < trustedHops;
}
