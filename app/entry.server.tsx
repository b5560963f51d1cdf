import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { requestInfoContext } from "./context";
// The compiled stylesheet as text, inlined into every page's head (see inline-stylesheet.tsx).
import appCss from "./app.css?inline";
import { InlineStylesheetContext } from "./inline-stylesheet";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // The nonce is made per request by server/app.ts and sent in the Content-Security-Policy header;
  // ServerRouter passes it on to <Scripts>, <ScrollRestoration> and the hydration data.
  const { nonce } = loadContext.get(requestInfoContext);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and no-JS clients get the whole document at once; browsers get the shell as soon as it is ready.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <InlineStylesheetContext value={{ css: appCss, nonce }}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </InlineStylesheetContext>,
      {
        // One nonce for React's inline scripts and for the inlined stylesheet (the CSP's script-src and style-src).
        nonce: { script: nonce, style: nonce },
        // A Suspense boundary whose content is ready (the components the browser loads lazily: lazyComponent) goes out
        // in place. By default React sends one of more than 500 bytes after a shell of more than 12.8 KB (a product
        // page's) as hidden HTML that a script reveals, which leaves a page without JavaScript with no form.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
