import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import type { Card } from '@strongroom/contracts/cards.ts';
import type { Config } from './config.ts';
import { lookupAccounts } from './ledger/accounts.ts';
import { cardSuite } from './test/cards.ts';
import { describeEachDatabase } from './test/databases.ts';
import { staffBrowser } from './test/staff.ts';

/**
 * The staff decisions that move money, raced (issue 30's money races, for the back office): a held
 * payment's release or rejection, and a credit card's approval (its line of credit), each sent many
 * times at once. Exactly one decision wins and moves the money once, in the transaction that records
 * it (docs/decisions/069); the others answer 409 and move nothing; the ledger stays consistent (the
 * suite checks it after the tests). On PGlite the requests queue on its one connection; on
 * PostgreSQL they really run at once.
 */
const concurrentDecisions = 10;

describeEachDatabase('money races in the back office: one decision wins, the money moves once', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = cardSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant', CARD_AUTO_APPROVE_SECONDS: 'off' } });
  /** A compliance officer: `transfers.review` is theirs. */
  const reviewer = async () => (await staffBrowser(app, database(), config, 'compliance')).browser;

  const atOnce = (send: (index: number) => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: concurrentDecisions }, (_, index) => send(index)));
  const statuses = (responses: LightMyRequestResponse[]) => responses.map((response) => response.statusCode).sort();

  /** $4,000 to another customer of the bank, a new payee: held for review (more than $3,000 in 24 hours to new payees). */
  async function heldTransfer() {
    const dana = await kit.customer({ fundCents: 1_000_000n, savingsCents: 0 });
    const erin = await kit.customer({ fundCents: 0n, savingsCents: 0, firstName: 'Erin', lastName: 'Example' });
    const response = await kit.payCustomer(dana, erin, { accountName: 'Erin Example', amountCents: 400_000, message: 'Car' });
    expect(response.statusCode, response.body).toBe(201);
    const transfer = response.json<{ transfer: { id: string; status: string } }>().transfer;
    expect(transfer.status).toBe('in_review');
    return { dana, erin, transferId: transfer.id };
  }

  it('POST /api/v1/staff/held-transfers/{id}/decision: ten releases at once release it once, and the money arrives once', async () => {
    const { dana, erin, transferId } = await heldTransfer();
    const staff = await reviewer();
    const answers = await atOnce(() => staff.post(`/api/v1/staff/held-transfers/${transferId}/decision`, { decision: 'release', reason: 'Seen the invoice' }));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(statuses(answers).filter((status) => status !== 200)).toEqual(Array.from({ length: concurrentDecisions - 1 }, () => 409));
    expect((await kit.balances(erin)).checking.balanceCents).toBe(400_000);
    expect((await kit.balances(dana)).checking).toMatchObject({ balanceCents: 600_000, availableCents: 600_000 });
    const [posts] = await database().query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM ledger_transfers WHERE pending_id = $1', [transferId]);
    expect(posts?.n).toBe(1n);
  });

  it('POST /api/v1/staff/held-transfers/{id}/decision: releases and rejections at once, one wins and the money goes one way only', async () => {
    const { dana, erin, transferId } = await heldTransfer();
    const staff = await reviewer();
    const answers = await atOnce((index) =>
      staff.post(`/api/v1/staff/held-transfers/${transferId}/decision`, { decision: index % 2 === 0 ? 'release' : 'reject', reason: 'Decided after a call' }),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const released = (await kit.balances(erin)).checking.balanceCents === 400_000;
    expect((await kit.balances(erin)).checking.balanceCents).toBe(released ? 400_000 : 0);
    expect((await kit.balances(dana)).checking).toMatchObject({ balanceCents: released ? 600_000 : 1_000_000, availableCents: released ? 600_000 : 1_000_000 });
    const [resolutions] = await database().query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM ledger_transfers WHERE pending_id = $1', [transferId]);
    expect(resolutions?.n).toBe(1n);
  });

  it('POST /api/v1/staff/cards/{id}/decision: ten approvals of a credit card at once grant its line of credit once', async () => {
    const who = await kit.customer();
    const requested = await kit.request(who, { cardType: 'credit', cardNetwork: 'visa', nameOnCard: 'Demo Customer' });
    expect(requested.statusCode, requested.body).toBe(201);
    const cardId = requested.json<{ card: Card }>().card.id;
    const answers = await atOnce(() => kit.decide(cardId, { decision: 'approve', reason: 'Good standing', creditLimitCents: 150_000 }));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(statuses(answers).filter((status) => status !== 200)).toEqual(Array.from({ length: concurrentDecisions - 1 }, () => 409));
    const [card] = await database().query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM cards WHERE id = $1', [cardId]);
    const [line] = await lookupAccounts(database(), [card?.ledger_account_id ?? '']);
    expect(line).toMatchObject({ creditsPostedCents: 150_000n, debitsPostedCents: 0n });
    expect((await who.browser.get(`/api/v1/cards/${cardId}`)).json<{ card: Card }>().card).toMatchObject({ status: 'active' });
  });
});
