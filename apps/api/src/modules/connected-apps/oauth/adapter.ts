import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../../../db/database.ts';
import { sha256 } from '../../../platform/crypto.ts';
import { endConsentOfGrant } from '../consents-repository.ts';
import { findRecipientByClientId } from '../recipients-repository.ts';

/**
 * oidc-provider's storage (docs/connected-apps.md, "Authorization server"): one row of oauth_store
 * per model and id, shared by every process, so a token one server issued works on another and a
 * revocation (connected-apps/consents-repository.ts revokeConsent deletes by grant_id) is seen by all.
 *
 * The ids of tokens, codes and pushed requests are the secrets themselves (an opaque access token
 * IS its id): they are kept as SHA-256 hashes, and the `jti` copy inside the payload is left out, so
 * a copy of the database holds no usable token. Grants, interactions and sessions keep their ids: a
 * grant id is no credential (revokeConsent finds the Grant row by it), an interaction's uid is in
 * the consent page's address anyway, and a session's id is useless without the cookie's signature
 * (made with keys the database does not hold); the provider also looks sessions up by uid.
 */
const plainIdModels = new Set(['Grant', 'Interaction', 'Session']);

/** The models whose rows carry a grant: revokeByGrantId and revokeConsent delete them by it. */
export function storedId(model: string, id: string): string {
  return plainIdModels.has(model) ? id : sha256(id).toString('base64url');
}

interface StoreRow {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/**
 * The Client model is not stored by the provider: it is the data recipient staff registered, read
 * on each use so a disabled app is refused at once (invalid_client) in every process.
 */
async function findClient(db: Queryable, clientId: string): Promise<AdapterPayload | undefined> {
  const row = await findRecipientByClientId(db, clientId);
  if (!row?.enabled) return undefined;
  return {
    client_id: row.client_id,
    client_name: row.name,
    redirect_uris: row.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'private_key_jwt',
    jwks: { keys: row.jwks.keys },
    id_token_signed_response_alg: 'ES256',
    // FAPI 2.0: every access token is sender-constrained; this app's are bound to its DPoP key.
    dpop_bound_access_tokens: true,
    require_pushed_authorization_requests: true,
  };
}

/** A factory oidc-provider calls once per model name (Session, AccessToken, Grant, ...). */
export function oauthStoreAdapter(db: Queryable): new (model: string) => Adapter {
  return class OAuthStoreAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const { jti: _secretCopy, ...kept } = payload;
      void _secretCopy;
      const grantId = this.model === 'Grant' ? id : typeof payload.grantId === 'string' ? payload.grantId : null;
      const uid = typeof payload.uid === 'string' ? payload.uid : null;
      const expiresAt = typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null;
      await db.query(
        `INSERT INTO oauth_store (model, id, payload, grant_id, uid, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [this.model, storedId(this.model, id), JSON.stringify(kept), grantId, uid, expiresAt],
      );
      // What has expired is deleted by a recurring job (sweeps.ts), not here.
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return findClient(db, id);
      const [row] = await db.query<StoreRow>(
        'SELECT payload, consumed_at FROM oauth_store WHERE model = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > now())',
        [this.model, storedId(this.model, id)],
      );
      return row ? withConsumed(row, id) : undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const [row] = await db.query<StoreRow & { id: string }>(
        'SELECT id, payload, consumed_at FROM oauth_store WHERE model = $1 AND uid = $2 AND (expires_at IS NULL OR expires_at > now())',
        [this.model, uid],
      );
      return row ? withConsumed(row, plainIdModels.has(this.model) ? row.id : undefined) : undefined;
    }

    findByUserCode(): Promise<AdapterPayload | undefined> {
      // The device flow is off: no model has a user code.
      return Promise.resolve(undefined);
    }

    async consume(id: string): Promise<void> {
      await db.query('UPDATE oauth_store SET consumed_at = now() WHERE model = $1 AND id = $2', [this.model, storedId(this.model, id)]);
    }

    async destroy(id: string): Promise<void> {
      await db.query('DELETE FROM oauth_store WHERE model = $1 AND id = $2', [this.model, storedId(this.model, id)]);
      // The provider destroys a grant when it revokes it (helpers/revoke: a refresh token revoked by
      // its app, a replayed code); a grant still being made has no consent yet, so this ends none.
      if (this.model === 'Grant') await endConsentOfGrant(db, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.query('DELETE FROM oauth_store WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
    }
  };
}

function withConsumed(row: StoreRow, id: string | undefined): AdapterPayload {
  const payload: AdapterPayload = { ...row.payload };
  if (id !== undefined) payload.jti = id;
  if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
  return payload;
}
