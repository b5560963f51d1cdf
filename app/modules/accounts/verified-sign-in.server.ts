import { createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import type { BetterAuthPlugin } from "better-auth";
import * as z from "zod";

/**
 * A better-auth endpoint, callable only from the server (auth.api.signInVerifiedUser), that makes a session and its
 * cookie for a user the shop has verified by itself: a passkey's signature checked by @simplewebauthn/server
 * (passkeys.server.ts). The session is made the way better-auth makes every other one (its token, its signed cookie,
 * the request's address and browser). Never reachable over HTTP: the shop mounts no better-auth handler, and the
 * endpoint is server-only besides.
 */
export function verifiedSignIn() {
  return {
    id: "scentara-verified-sign-in",
    endpoints: {
      signInVerifiedUser: createAuthEndpoint.serverOnly({ method: "POST", body: z.object({ userId: z.string().min(1) }) }, async (ctx) => {
        const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
        if (!user) throw new Error("no such user");
        const session = await ctx.context.internalAdapter.createSession(user.id, false);
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ userId: user.id, sessionId: session.id });
      }),
    },
  } satisfies BetterAuthPlugin;
}
