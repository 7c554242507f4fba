/**
 * The zipf workload of `npm run bench:http` (issue 37 item 2): which signed-in customer pays which
 * payee on each line of wrk's rotation.
 */

/** A deterministic generator (mulberry32), so that a run's Zipf rotation can be made again. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface ZipfPlan {
  /** The rotation wrk sends: (payer, payee rank) pairs, one per payer in turn, as internal's. */
  rotation: { payer: number; payee: number }[];
  /** Each payer's distinct payees (ranks): each needs one first payment with a step-up. */
  knownPayees: number[][];
  /** Lines of the rotation per payee rank: what each payee receives of every pass. */
  counts: number[];
}

/**
 * The zipf workload's rotation: `payers x perPayer` lines whose payees follow a Zipf law (the
 * payee of rank r on about T/r^s/H of them, every payee on one at least), every payer on
 * `perPayer` of them in turn (so, as in internal, the payers in flight are distinct and only the
 * payees are skewed), each payer knowing at most `maxPairs` payees. A payee is spread over as
 * many payers as the step-up budget allows, the most paid ones over all of them; one of the tail
 * is known to one payer.
 */
export function zipfPlan(payers: number, payees: number, perPayer: number, maxPairs: number, s: number, seed = 37): ZipfPlan {
  const total = payers * perPayer;
  if (payees > payers * maxPairs) throw new Error(`${payees} payees need more known payees than ${payers} payers x ${maxPairs}`);
  const weights = Array.from({ length: payees }, (_, rank) => 1 / (rank + 1) ** s);
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const counts = exact.map((x) => Math.max(1, Math.floor(x)));
  let left = total - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, rank) => ({ rank, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest);
  for (let i = 0; left > 0; i = (i + 1) % payees, left -= 1) counts[byRemainder[i]?.rank ?? 0] += 1;
  for (let rank = 0; left < 0; rank = (rank + 1) % payees) {
    if ((counts[rank] ?? 0) > 1) {
      counts[rank] = (counts[rank] ?? 0) - 1;
      left += 1;
    }
  }
  // Payers per payee: one per `lines` lines of it, the fewest lines that fit the step-up budget
  // (with a tenth to spare for the greedy placing below).
  const spreadFor = (lines: number) => counts.map((count) => Math.min(payers, Math.max(1, Math.ceil(count / lines))));
  let lines = 1;
  while (spreadFor(lines).reduce((a, b) => a + b, 0) > payers * maxPairs * 0.9) lines += 1;
  const spread = spreadFor(lines);
  const remaining = Array.from({ length: payers }, () => perPayer);
  const known: number[][] = Array.from({ length: payers }, () => []);
  const lists: number[][] = Array.from({ length: payers }, () => []);
  for (let rank = 0; rank < payees; rank += 1) {
    let count = counts[rank] ?? 0;
    const candidates = remaining
      .map((room, payer) => ({ payer, room }))
      .filter(({ payer, room }) => room > 0 && (known[payer]?.length ?? 0) < maxPairs)
      .sort((a, b) => b.room - a.room || (known[a.payer]?.length ?? 0) - (known[b.payer]?.length ?? 0) || a.payer - b.payer);
    let wanted = spread[rank] ?? 1;
    for (let i = 0; count > 0; i += 1) {
      const candidate = candidates[i];
      if (!candidate) throw new Error(`the Zipf plan cannot place payee ${rank + 1}: raise the templates or the known payees per payer`);
      const share = Math.min(candidate.room, Math.ceil(count / Math.max(1, wanted)));
      wanted -= 1;
      if (share <= 0) continue;
      known[candidate.payer]?.push(rank);
      for (let n = 0; n < share; n += 1) lists[candidate.payer]?.push(rank);
      remaining[candidate.payer] = candidate.room - share;
      count -= share;
    }
  }
  if (remaining.some((room) => room !== 0)) throw new Error('the Zipf plan left lines unfilled');
  // Each payer's lines in a seeded random order; then one line of each payer in turn.
  const random = seededRandom(seed);
  for (const list of lists) {
    for (let i = list.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j] ?? 0, list[i] ?? 0];
    }
  }
  const rotation: ZipfPlan['rotation'] = [];
  for (let k = 0; k < perPayer; k += 1) for (let payer = 0; payer < payers; payer += 1) rotation.push({ payer, payee: lists[payer]?.[k] ?? 0 });
  return { rotation, knownPayees: known, counts };
}
