import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionInstance } from 'oidc-provider';
import {
  consentMaxDays,
  dataScopes,
  type ApproveConnectRequest,
  type ConnectRedirect,
  type ConnectRequest,
  type DataScope,
} from '@strongroom/contracts/connected-apps.ts';
import { recordAudit } from '../../../platform/audit.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { requestHash } from '../../../platform/idempotency.ts';
import { auditEntryOf, type CustomerActor } from '../../../platform/request-actor.ts';
import { consumeStepUp, requireStepUp } from '../../step-up/service.ts';
import { attachGrant, insertConsent } from '../consents-repository.ts';
import { maskedAccountOf } from '../consents.ts';
import type { ConnectedAppsDependencies } from '../dependencies.ts';
import { findRecipientByClientId, type RecipientRow } from '../recipients-repository.ts';
import { fdxResourceOf, pairwiseSubject } from './configuration.ts';

/**
 * The consent page's side of the authorization server (docs/connected-apps.md, "Consent"): the
 * provider stops an authorization at an interaction and sends the browser to `/connect/{uid}`;
 * the signed-in customer reads who asks for what, then approves (a step-up every time) or refuses,
 * and the browser goes back to the provider, which answers the app.
 */
export const connectRequestNotFound = 'This request to connect an app is unknown, finished or expired. Go back to the app and start again.';

/** Our own note in the interaction's result: which request answered it, so the same request again gets the same answer. */
interface Answered {
  key: string;
  hash: string;
}

interface OpenRequest {
  interaction: InteractionInstance;
  recipient: RecipientRow;
  /** The data clusters asked for that staff allowed the app, in dataClusters' order. */
  scopes: DataScope[];
}

function requestedScopes(interaction: InteractionInstance): string[] {
  const scope = interaction.params.scope;
  return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
}

/**
 * The interaction this browser started (the provider's signed interaction cookie names it: another
 * browser's uid is not found), for an app still enabled. `answered` is given back when the
 * interaction already has a result; everything else unknown answers 404 alike.
 */
async function openRequest(
  dependencies: ConnectedAppsDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
  uid: string,
): Promise<OpenRequest & { answered?: Answered }> {
  const provider = await dependencies.authorizationServer.provider();
  // The provider's interaction cookie, signed with its keys (what interactionDetails reads; read
  // here without its check of the provider's own login session, which answering drops anyway).
  const cookieUid = provider.createContext(request.raw, reply.raw).cookies.get(provider.cookieName('interaction'), { signed: true });
  const interaction = cookieUid === uid ? await provider.Interaction.find(uid) : undefined;
  if (!interaction || interaction.uid !== uid || typeof interaction.params.client_id !== 'string') throw notFound(connectRequestNotFound);
  const recipient = await findRecipientByClientId(dependencies.db, interaction.params.client_id);
  if (!recipient?.enabled) throw notFound(connectRequestNotFound);
  const asked = new Set(requestedScopes(interaction));
  const scopes = dataScopes.filter((scope) => asked.has(scope) && recipient.allowed_scopes.includes(scope));
  if (scopes.length === 0) throw notFound(connectRequestNotFound);
  const answered = interaction.result?.strongroom as Answered | undefined;
  if (interaction.result && !answered) throw notFound(connectRequestNotFound);
  return { interaction, recipient, scopes, ...(answered ? { answered } : {}) };
}

async function openAccountsOf(dependencies: ConnectedAppsDependencies, customerId: string) {
  return dependencies.db.query<{ id: string; name: string; number: string }>(
    `SELECT id, name, number FROM customer_accounts WHERE customer_id = $1 AND status <> 'closed' ORDER BY opened_at, id`,
    [customerId],
  );
}

/** `GET /connect/requests/{uid}`: who asks for what, and the customer's open accounts to choose from. */
export async function connectRequestOf(
  dependencies: ConnectedAppsDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
  customerId: string,
  uid: string,
): Promise<ConnectRequest> {
  const open = await openRequest(dependencies, request, reply, uid);
  if (open.answered) throw notFound(connectRequestNotFound);
  const accounts = await openAccountsOf(dependencies, customerId);
  return {
    uid,
    app: { id: open.recipient.id, name: open.recipient.name, logoUrl: open.recipient.logo_url, contactEmail: open.recipient.contact_email },
    scopes: open.scopes,
    accounts: accounts.map(maskedAccountOf),
    maxDays: consentMaxDays,
  };
}

/**
 * Each consent stands alone: the provider's own login session (its cookie, and the interaction's
 * note of it) is dropped when the customer answers, so the provider never remembers a customer
 * between requests, nor sees "another account" when another customer, or the same customer for
 * another app, answers next in this browser (it would then ask to log out first).
 */
function forgetProviderSession(interaction: InteractionInstance, reply: FastifyReply): void {
  delete (interaction as { session?: unknown }).session;
  for (const name of ['oauth_session', 'oauth_session.sig']) reply.clearCookie(name, { path: '/' });
}

function secondsLeft(interaction: InteractionInstance): number {
  return Math.max(1, interaction.exp - Math.floor(Date.now() / 1000));
}

/**
 * `POST /connect/requests/{uid}/approve`: a step-up every time (bound to this request and body),
 * then the consent, the provider's grant for exactly what the customer chose (what they left out
 * is recorded as refused, so the provider does not ask again), the audit entry, and the
 * interaction's result. The same request again (same Idempotency-Key and body) answers the same.
 */
export async function approveConnectRequest(
  dependencies: ConnectedAppsDependencies,
  http: { request: FastifyRequest; reply: FastifyReply },
  actor: CustomerActor,
  uid: string,
  approval: { body: Required<ApproveConnectRequest>; idempotencyKey: string; stepUpChallengeId: string | undefined },
): Promise<ConnectRedirect> {
  const { db, config, clock } = dependencies;
  const { body } = approval;
  const hash = requestHash('connect-approve', { uid, accountIds: [...body.accountIds].sort(), scopes: [...body.scopes].sort(), days: body.days });
  const answeredAs: Answered = { key: approval.idempotencyKey, hash: hash.toString('base64url') };
  const open = await openRequest(dependencies, http.request, http.reply, uid);
  if (open.answered) {
    if (open.answered.key === answeredAs.key && open.answered.hash === answeredAs.hash) return { redirectTo: open.interaction.returnTo };
    throw notFound(connectRequestNotFound);
  }
  const fields: Record<string, string> = {};
  if (!body.scopes.every((scope) => open.scopes.includes(scope))) fields.scopes = 'choose only among the kinds of data the app asks for';
  const openIds = new Set((await openAccountsOf(dependencies, actor.customerId)).map((account) => account.id));
  if (!body.accountIds.every((id) => openIds.has(id))) fields.accountIds = 'choose among your open accounts';
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', 'Some choices are not valid', { fields });

  const challenge = {
    customerId: actor.customerId,
    idempotencyKey: approval.idempotencyKey,
    requestHash: hash,
    amountCents: 0n,
    purpose: `connecting ${open.recipient.name} to your accounts`,
    requestId: actor.requestId,
  };
  if (!approval.stepUpChallengeId) return requireStepUp(dependencies.stepUp, challenge);

  const provider = await dependencies.authorizationServer.provider();
  const accountId = pairwiseSubject(config, actor.customerId, open.recipient.client_id);
  const seconds = body.days * 86_400;
  const grant = new provider.Grant({ accountId, clientId: open.recipient.client_id, expiresIn: seconds });
  const askedOpenId = requestedScopes(open.interaction).filter((scope) => scope === 'openid' || scope === 'offline_access');
  if (askedOpenId.length > 0) grant.addOIDCScope(askedOpenId.join(' '));
  const resource = fdxResourceOf(config.publicUrl);
  grant.addResourceScope(resource, body.scopes.join(' '));
  const left = open.scopes.filter((scope) => !body.scopes.includes(scope));
  if (left.length > 0) grant.rejectResourceScope(resource, left.join(' '));
  const grantId = await grant.save();

  const consentId = randomUUID();
  const expiresAt = new Date(clock.now().getTime() + seconds * 1000);
  const done = await db
    .transaction(async (tx) => {
      if (!(await consumeStepUp(tx, actor.customerId, approval.stepUpChallengeId ?? '', approval.idempotencyKey, hash))) return false;
      const consent = await insertConsent(tx, {
        id: consentId,
        customerId: actor.customerId,
        recipientId: open.recipient.id,
        scopes: body.scopes,
        accountIds: body.accountIds,
        expiresAt,
      });
      if (!consent) throw new AppError('validation_failed', 'Some choices are not valid', { fields: { accountIds: 'choose among your open accounts' } });
      await attachGrant(tx, consentId, grantId);
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'connected_app.consented',
          subject: consentId,
          outcome: 'success',
          details: {
            recipientId: open.recipient.id,
            appName: open.recipient.name,
            scopes: body.scopes.join(' '),
            accountCount: body.accountIds.length,
            expiresAt: expiresAt.toISOString(),
          },
        }),
      );
      return true;
    })
    .catch(async (error: unknown) => {
      // Nothing was given: the grant made for it goes too.
      await grant.destroy();
      throw error;
    });
  if (!done) {
    await grant.destroy();
    return requireStepUp(dependencies.stepUp, challenge);
  }
  open.interaction.result = { login: { accountId, remember: false }, consent: { grantId }, strongroom: answeredAs };
  forgetProviderSession(open.interaction, http.reply);
  await open.interaction.save(secondsLeft(open.interaction));
  return { redirectTo: open.interaction.returnTo };
}

/** `POST /connect/requests/{uid}/refuse`: the app gets access_denied; nothing is granted. */
export async function refuseConnectRequest(
  dependencies: ConnectedAppsDependencies,
  http: { request: FastifyRequest; reply: FastifyReply },
  actor: CustomerActor,
  uid: string,
): Promise<ConnectRedirect> {
  const open = await openRequest(dependencies, http.request, http.reply, uid);
  if (open.answered) throw notFound(connectRequestNotFound);
  open.interaction.result = { error: 'access_denied', error_description: 'The customer refused the request', strongroom: { key: 'refused', hash: 'refused' } };
  forgetProviderSession(open.interaction, http.reply);
  await open.interaction.save(secondsLeft(open.interaction));
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'connected_app.refused',
      subject: open.recipient.id,
      outcome: 'success',
      details: { recipientId: open.recipient.id, appName: open.recipient.name },
    }),
  );
  return { redirectTo: open.interaction.returnTo };
}
