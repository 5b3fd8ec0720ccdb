import helmet from 'helmet';

/**
 * Helmet with a CSP that lets the shell load federated chunks: same-origin by default, plus any origin a
 * remote is deployed to (REMOTE_ORIGINS). styled-components injects <style> tags, hence 'unsafe-inline'
 * for styles only.
 */
export function securityHeaders(remoteOrigins: string[]) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...remoteOrigins],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...remoteOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}
