import { randomBytes } from 'node:crypto';
import type { CryptoKeyPair } from 'openid-client';

/**
 * What Pennywise remembers of one browser, in this process's memory only (docs/connected-apps.md,
 * "The sandbox's app"): while a connection is under way, its state, PKCE verifier and DPoP key;
 * once connected, the tokens and the same DPoP key, which the access token is bound to. A real app
 * would keep them in its own database; a sandbox restart simply asks the customer to connect again.
 * Nothing here is ever logged or written anywhere.
 */
export interface PendingConnection {
  state: string;
  codeVerifier: string;
  dpopKeys: CryptoKeyPair;
}

export interface Connection {
  accessToken: string;
  refreshToken: string | undefined;
  dpopKeys: CryptoKeyPair;
  /** The scopes the bank's token answer said it granted. */
  scopes: string[];
}

export interface BudgetAppSession {
  pending?: PendingConnection | undefined;
  connection?: Connection | undefined;
  lastSeenAtMs: number;
}

/** The app's own cookie, on its own path, so the bank's pages never receive it. */
export const sessionCookieName = 'pennywise_session';
/** A browser idle this long starts again (as a flow left half-way does). */
export const sessionIdleMs = 2 * 60 * 60 * 1000;
/** A bound on memory: past this many browsers, the longest idle one is forgotten. */
export const maxSessions = 500;

export class SessionStore {
  readonly #sessions = new Map<string, BudgetAppSession>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** The session of this id when it is known and not idle too long. */
  get(id: string | undefined): BudgetAppSession | undefined {
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (this.nowMs() - session.lastSeenAtMs > sessionIdleMs) {
      this.#sessions.delete(id);
      return undefined;
    }
    session.lastSeenAtMs = this.nowMs();
    // Re-inserted so the map's order is least recently seen first.
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    return session;
  }

  /** A new session and its id (256 random bits), forgetting the least recently seen one when full. */
  create(): { id: string; session: BudgetAppSession } {
    while (this.#sessions.size >= maxSessions) {
      const oldest = this.#sessions.keys().next();
      if (oldest.done) break;
      this.#sessions.delete(oldest.value);
    }
    const id = randomBytes(32).toString('base64url');
    const session: BudgetAppSession = { lastSeenAtMs: this.nowMs() };
    this.#sessions.set(id, session);
    return { id, session };
  }

  get size(): number {
    return this.#sessions.size;
  }
}
