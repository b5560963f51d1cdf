import type { NextFunction, Request, Response } from "express";
import { errorBody } from "~/utils/errors";
import { hasNul, INPUT_MESSAGES, MAX_FORM_BYTES, MAX_UPLOAD_BYTES } from "~/utils/request.server";
import { MAX_IMPORT_UPLOAD_BYTES } from "~/modules/catalog-csv/csv-limits";

/**
 * Guards in front of every route, for what a route never gets to see. Routes themselves read their input through
 * app/utils/request.server.ts (forms only, no NUL, bounded), which these mirror at the HTTP level.
 *
 * Request bodies are refused before a byte of them is read when they are larger than their route allows (413) or
 * don't say how large they are (411: every browser form post and every payment provider sends Content-Length, and
 * Node's parser never delivers more than the declared length, so the declared length is a true upper bound).
 * The connection is closed after the answer, so the unread body isn't parsed as a next request.
 */

const UPLOAD_PATH = /^\/admin\/products\/(?:add|images|edit\/[^/]+)(?:\.data)?$/;

/** The product import's CSV file (docs/decisions/032). */
const IMPORT_PATH = /^\/admin\/products\/import(?:\.data)?$/;

/** The largest body a path accepts: the product form and its upload carry an image (5 MB), the import a CSV, the rest small forms. */
export function bodyLimitFor(path: string): number {
  if (IMPORT_PATH.test(path)) return MAX_IMPORT_UPLOAD_BYTES;
  return UPLOAD_PATH.test(path) ? MAX_UPLOAD_BYTES : MAX_FORM_BYTES;
}

function refuse(res: Response, status: 400 | 411 | 413, error: string) {
  res.setHeader("Connection", "close");
  res.setHeader("Cache-Control", "no-store");
  res.status(status).json(errorBody(error));
}

export function bodyLimit(limitFor: (path: string) => number = bodyLimitFor) {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = req.headers["content-length"];
    if (declared === undefined) {
      if (req.headers["transfer-encoding"]) return refuse(res, 411, "Send the request with a Content-Length");
      return next(); // no body at all
    }
    if (Number(declared) > limitFor(req.path)) return refuse(res, 413, "The request is too large");
    next();
  };
}

/**
 * A NUL byte anywhere in the URL (a query parameter, or a path segment that becomes a route parameter) is refused
 * with 400 on every path, including those whose loader ignores it: PostgreSQL can't store NUL in text, so one that
 * reached a query would be a 500.
 */
export function refuseNulInUrl() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!/%00/.test(req.originalUrl)) return next(); // a raw NUL can't be in a request line; only its escape can
    const q = req.originalUrl.indexOf("?");
    const path = q === -1 ? req.originalUrl : req.originalUrl.slice(0, q);
    let decodedPath = "";
    try {
      decodedPath = decodeURIComponent(path);
    } catch {
      return refuse(res, 400, INPUT_MESSAGES.unreadable);
    }
    const params = q === -1 ? [] : [...new URLSearchParams(req.originalUrl.slice(q + 1))];
    if (hasNul(decodedPath) || params.some(([key, value]) => hasNul(key) || hasNul(value))) return refuse(res, 400, INPUT_MESSAGES.nul);
    next();
  };
}
