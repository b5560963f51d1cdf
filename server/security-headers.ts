import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

export interface SecurityOptions {
  /** HSTS only makes sense (and is only sent) when the shop is served over https. */
  https: boolean;
  /** Origins a form may post to or be redirected to (the payment provider's checkout page). */
  formActionOrigins?: string[];
  /** Origins images load from besides this one (a public S3 bucket or CDN: S3_PUBLIC_URL). */
  imageOrigins?: string[];
}

export function contentSecurityPolicy(nonce: string, options: SecurityOptions) {
  const formAction = ["'self'", ...(options.formActionOrigins ?? [])].join(" ");
  return [
    "default-src 'self'",
    // Scripts run only from this origin or with this response's nonce: no 'unsafe-inline', no eval.
    `script-src 'self' 'nonce-${nonce}'`,
    // Inline style attributes (used by a few accessible primitives) are allowed; style elements need the nonce.
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...(options.imageOrigins ?? [])].join(" "),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Security headers on every response, and a fresh CSP nonce in res.locals.nonce for the HTML renderer. */
export function securityHeaders(options: SecurityOptions) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce, options));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (options.https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    res.removeHeader("X-Powered-By");
    next();
  };
}
