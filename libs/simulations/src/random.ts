/** A source of numbers in [0, 1): Math.random in the pages, a seeded generator in tests. */
export interface Random {
  next(): number;
}

export const systemRandom: Random = { next: () => Math.random() };

/** mulberry32: small, fast and good enough for simulations; the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** A number in [min, max). */
export const between = (random: Random, min: number, max: number) => min + random.next() * (max - min);

/** A whole number in [min, max]. */
export const wholeBetween = (random: Random, min: number, max: number) => Math.floor(between(random, min, max + 1));

/** True with probability p. */
export const chance = (random: Random, p: number) => random.next() < p;

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random.next() * items.length)]!;
}
