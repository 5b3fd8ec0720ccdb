import type { FastifyReply, FastifyRequest } from 'fastify';
import { MoreThan } from 'typeorm';
import type { ListPageQuery } from '@cbh/contracts';
import { pathOf } from './http';

/** The find options of one page in id order: at most `limit` rows after the id `after`. */
export function pageOptions({ limit, after }: ListPageQuery) {
  return { where: after ? { id: MoreThan(after) } : {}, order: { id: 'ASC' as const }, take: limit };
}

/**
 * A full page links to the next one (RFC 8288), so clients can walk a list longer than one page; the query's
 * filters (strings) go along.
 */
export function linkNextPage(
  req: FastifyRequest,
  res: FastifyReply,
  rows: readonly { id: number }[],
  { limit, after: _after, ...filters }: ListPageQuery & Record<string, unknown>,
) {
  if (rows.length < limit) return;
  const kept = Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const next = new URLSearchParams({ ...Object.fromEntries(kept), after: String(rows.at(-1)!.id), limit: String(limit) });
  res.header('Link', `<${pathOf(req.raw)}?${next}>; rel="next"`);
}
