import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/**
 * Helmet with a CSP that lets the shell load federated chunks: same-origin by default, plus any origin a
 * remote is deployed to (REMOTE_ORIGINS). styled-components injects <style> tags, hence 'unsafe-inline'
 * for styles only. connect-src allows https: for the domain screen's Test Connection, a no-cors HEAD request from
 * the browser to the owner's own site; it reads nothing back, and images could already reach any https origin.
 */
export function securityHeaders(remoteOrigins: string[]) {
  const site = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...remoteOrigins],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https:', ...remoteOrigins],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // JSON answers are never rendered as documents: the document policies (CSP, framing, …) do not apply to them.
  return (req: Request, res: Response, next: NextFunction) => {
    if (
      !req.path.startsWith('/api/') ||
      req.path.startsWith('/api/docs') ||
      req.path === '/api/login' ||
      req.path.startsWith('/api/invitations')
    )
      return site(req, res, next);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    next();
  };
}
