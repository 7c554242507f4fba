import { inject, onTestFailed } from 'vitest';

/** Set it to the seed a run printed to replay that run's random tests (docs/testing.md). */
export const testSeedVariable = 'STRONGROOM_TEST_SEED';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One seed for every random test of the run, chosen (or read from the environment) in global-setup.ts. */
    testSeed: number;
  }
}

/** The seed from the environment, or a new one; a seed is a 32-bit unsigned integer, as fast-check takes. */
export function chooseTestSeed(environment: NodeJS.ProcessEnv = process.env): number {
  const given = environment[testSeedVariable];
  if (given === undefined || given === '') return Math.floor(Math.random() * 2 ** 32);
  const seed = Number(given);
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) throw new RangeError(`${testSeedVariable} must be an integer from 0 to 2^32 - 1, not ${given}`);
  return seed;
}

/** The run's seed, for a test that draws at random; if the test fails, it says how to replay it. */
export function testSeed(): number {
  const seed = inject('testSeed');
  onTestFailed(() => {
    console.error(`This test drew at random with seed ${seed}; replay it with ${testSeedVariable}=${seed}`);
  });
  return seed;
}

/** A small seeded generator (mulberry32) in place of Math.random: numbers from 0 up to 1. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}
