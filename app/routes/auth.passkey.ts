/**
 * /auth/passkey: the server half of a passkey ceremony (a resource route the passkey buttons post to with fetch):
 * `step=options` answers WebAuthn options and a one-use challenge id; `step=verify` checks the authenticator's answer.
 * Purposes: sign-in (anyone: a passkey signs in alone), register (the signed-in person adds one; their proof must be
 * under 10 minutes old), confirm (the step-up: the signed-in person's own passkey). docs/decisions/059.
 */
import type { Route } from "./+types/auth.passkey";
import { getDb } from "~/db/db.server";
import { addPasskey, passkeyAuthenticationOptions, passkeyRegistrationOptions, signInWithPasskey } from "~/modules/accounts/passkeys.server";
import { safeRedirect } from "~/modules/accounts/redirect";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { assertSameOrigin, confirmationRequired, getSessionUser, isRecentlyConfirmed } from "~/modules/accounts/session.server";
import { confirmByPasskey } from "~/modules/accounts/step-up.server";
import { DomainError, errorBody } from "~/utils/errors";
import { readFields } from "~/utils/request.server";

const json = (body: unknown, status = 200, headers = new Headers()) => {
  headers.set("Cache-Control", "no-store");
  return Response.json(body, { status, headers });
};

export async function loader() {
  return json(errorBody("Not found"), 404);
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const fields = await readFields(request);
  const db = getDb();
  const meta = requestMeta(request, context);
  const redirectTo = safeRedirect(fields.redirect, "/");
  try {
    const answer = () => {
      try {
        return { challengeId: fields.challengeId ?? "", response: JSON.parse(fields.response ?? "null") as unknown };
      } catch {
        throw new DomainError("That passkey couldn't be used. Please try again.", 400);
      }
    };
    if (fields.purpose === "sign-in") {
      if (fields.step === "options") return json(await passkeyAuthenticationOptions(db, null));
      const { setCookies } = await signInWithPasskey(db, answer(), meta);
      const headers = new Headers();
      for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
      return json({ ok: true, redirect: redirectTo }, 200, headers);
    }
    const user = await getSessionUser(request);
    if (!user) return json(errorBody("Please sign in first."), 401);
    if (fields.purpose === "register") {
      if (!isRecentlyConfirmed(user)) return json(confirmationRequired("/profile/security"), 403);
      if (fields.step === "options") return json(await passkeyRegistrationOptions(db, user));
      const passkey = await addPasskey(db, user, { ...answer(), name: fields.name }, meta);
      return json({ ok: true, redirect: `/profile/security?added=${encodeURIComponent(passkey.id)}` });
    }
    if (fields.purpose === "confirm") {
      if (fields.step === "options") return json(await passkeyAuthenticationOptions(db, user.id));
      await confirmByPasskey(db, user, answer());
      return json({ ok: true, redirect: redirectTo });
    }
    return json(errorBody("Unknown request"), 400);
  } catch (error) {
    if (error instanceof DomainError) return json(errorBody(error.message), error.status);
    throw error;
  }
}
