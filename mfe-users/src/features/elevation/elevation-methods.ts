import { ELEVATION_METHODS } from '@cbh/contracts';
import { theme } from '@cbh/ui';

export type ElevationMethod = (typeof ELEVATION_METHODS)[number];
export type SecurityLevel = 'high' | 'medium';

export interface ElevationMethodCard {
  id: ElevationMethod;
  name: string;
  description: string;
  securityLevel: SecurityLevel;
}

/** Keyed by method so that a method added to the contracts fails the type check until it has a card here. */
const CARDS: Record<ElevationMethod, Omit<ElevationMethodCard, 'id'>> = {
  email_verification: {
    name: 'Email Verification',
    description: 'We e-mail a single-use link to your address; following it grants access.',
    securityLevel: 'high',
  },
  master_key: {
    name: 'Master Security Key',
    description: 'Enter the master key configured on this server.',
    securityLevel: 'high',
  },
  time_based_otp: {
    name: 'Time-based OTP',
    description: 'Enter the 6-digit one-time code, which changes every 30 seconds.',
    securityLevel: 'medium',
  },
};

/** The methods in the order the contracts list them (the API accepts exactly these). */
export const METHOD_CARDS: readonly ElevationMethodCard[] = ELEVATION_METHODS.map((id) => ({ id, ...CARDS[id] }));

export const methodName = (id: ElevationMethod) => CARDS[id].name;

export const SECURITY_LEVELS: Record<SecurityLevel, { label: string; color: string }> = {
  high: { label: 'High security', color: theme.colors.success },
  // the darker amber: white text on the warning yellow is too faint to read
  medium: { label: 'Medium security', color: theme.colors.halfOpen },
};

/** Long enough to read the success toast before the home page replaces this one. */
export const REDIRECT_AFTER_SUCCESS_MS = 1500;

/** The TOTP period the API uses; stated to the user so the countdown makes sense. */
export const OTP_PERIOD_SECONDS = 30;

export const OTP_LENGTH = 6;

export const ELEVATION_TOASTS = {
  success: { title: 'Privilege Elevation Successful', description: 'You now have super admin access. Redirecting...' },
  failureTitle: 'Elevation Failed',
  failureFallback: 'Invalid credentials or verification failed',
  /** Only used if a 429 ever arrives without the API's own message (which says when to try again). */
  tooManyFallback: 'Too many failed attempts. Try again later.',
} as const;
