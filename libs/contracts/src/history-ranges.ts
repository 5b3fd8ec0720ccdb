/**
 * The spans a breaker's past can be shown over (GET /api/circuit-breakers/{id}/history?range=): each is cut into
 * `stepSeconds` steps so that no answer holds more than HISTORY_MAX_POINTS points.
 */
export const HISTORY_RANGES = {
  '5m': { label: '5 min', seconds: 300, stepSeconds: 1 },
  '1h': { label: '1 h', seconds: 3600, stepSeconds: 12 },
  '6h': { label: '6 h', seconds: 21_600, stepSeconds: 72 },
  '24h': { label: '24 h', seconds: 86_400, stepSeconds: 288 },
} as const;
export type HistoryRange = keyof typeof HISTORY_RANGES;
export const HISTORY_RANGE_NAMES = Object.keys(HISTORY_RANGES) as HistoryRange[];
export const DEFAULT_HISTORY_RANGE: HistoryRange = '1h';
export const HISTORY_MAX_POINTS = 300;
