/**
 * The id in a record's address (/circuit-breakers/:id, /slos/:id): only a plain positive whole number names one, so
 * '07', '1e3' or '0x1f' are not read as some other record's id. Null asks the API nothing.
 */
export function recordIdFrom(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d*$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) ? id : null;
}
