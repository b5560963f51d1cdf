/**
 * /profile/security (Profile → Sign-in & Security): authenticator app, backup codes, passkeys and signed-in devices
 * (docs/decisions/059). Every form works without JavaScript except adding a passkey (WebAuthn needs it). Changing a
 * factor asks for the password or a passkey again when the last proof is over 10 minutes old.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/profile.security";
import { SecurityPage } from "~/components/accounts/security-panels";
import { getDb } from "~/db/db.server";
import { requestMeta } from "~/modules/accounts/route-helpers.server";
import { runSecurityIntent, securityOverview } from "~/modules/accounts/security.server";
import { confirmPath, isRecentlyConfirmed, requireUser, requireUserAction } from "~/modules/accounts/session.server";
import { securityIntentSchema, SENSITIVE_SECURITY_INTENTS, TWO_STEP_MESSAGES } from "~/modules/accounts/two-step.schema";
import { fieldErrorsOf, formError, handleDomainErrors } from "~/utils/errors";
import { readFields, readQuery } from "~/utils/request.server";

export function meta() {
  return [{ title: "Sign-in & Security | Scentara" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const query = readQuery(request);
  const overview = await securityOverview(getDb(), user);
  return {
    ...overview,
    notice: query.has("added") ? TWO_STEP_MESSAGES.passkeyAdded : null,
    recentlyConfirmed: isRecentlyConfirmed(user),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUserAction(request);
  const parsed = securityIntentSchema.safeParse(await readFields(request));
  if (!parsed.success) return formError(parsed.error.issues[0]?.message ?? "Please check the form", 400, fieldErrorsOf(parsed.error.issues));
  if (SENSITIVE_SECURITY_INTENTS.has(parsed.data.intent) && !isRecentlyConfirmed(user)) throw redirect(confirmPath("/profile/security"));
  return handleDomainErrors(async () => {
    const result = await runSecurityIntent(getDb(), user, parsed.data, requestMeta(request, context));
    return { ok: true as const, intent: parsed.data.intent, ...result };
  });
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  return <SecurityPage data={loaderData} answer={actionData} />;
}
