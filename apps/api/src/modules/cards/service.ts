/**
 * The cards module's public face: what other modules (and app.ts) use of it, and nothing else
 * (lint's `strongroom/module-boundaries` lets them import only this file). The rules themselves
 * live beside it by responsibility: card-lifecycle.ts (request, freeze, close, limits),
 * card-decisions.ts (approval and the back office's queue), card-reveal.ts, authorizations.ts and
 * authorization-holds.ts (the card network), credit-payments.ts, push-target.ts and presenter.ts.
 */
export type { CardDependencies } from './card-dependencies.ts';
export { cardCountOf, cardsOf } from './card-lifecycle.ts';
export { transactionsOfCard } from './authorizations.ts';
export { cardPushTargetOf, type CardPushTarget } from './push-target.ts';
/** Freezing a card and ordering its replacement inside a caller's transaction (a dispute of an unauthorized charge). */
export { freezeAndReplaceCard, type CardReplacement } from './replacement.ts';
