/**
 * Numbers from 0 to 1 (exclusive) that a seed repeats (a Lehmer generator), for specs that walk or change things at
 * random: a failure can be replayed from the same seed.
 */
export function randomFrom(seed: number): () => number {
  return () => (seed = (seed * 48271) % 2147483647) / 2147483647;
}
