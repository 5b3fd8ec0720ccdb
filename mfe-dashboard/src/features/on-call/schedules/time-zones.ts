/** The zones the time zone field offers first; any other IANA zone may be typed. */
export const COMMON_TIME_ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Dublin',
  'Europe/Lisbon',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Madrid',
  'Europe/Rome',
  'Europe/Amsterdam',
  'Europe/Stockholm',
  'Europe/Warsaw',
  'Europe/Athens',
  'Europe/Kyiv',
  'Europe/Istanbul',
  'Africa/Lagos',
  'Africa/Johannesburg',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Pacific/Auckland',
  'America/Sao_Paulo',
  'America/Halifax',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
] as const;

/** The reader's own zone, as the browser knows it ('Europe/Berlin'). */
export const viewerTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A zone this browser knows, judged as timeZoneSchema judges it (by asking Intl), in its words. */
export function timeZoneProblem(zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return undefined;
  } catch {
    return 'must be an IANA time zone such as Europe/Berlin';
  }
}
