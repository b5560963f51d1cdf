import type { z } from "zod";
import { data } from "react-router";
import { getDb, type DB } from "~/db/db.server";
import type { Permission } from "~/modules/accounts/permissions";
import { confirmationRequired, isRecentlyConfirmed, postedFrom, requireAdminAction, requirePermissionAction, type SessionUser } from "~/modules/accounts/session.server";
import { DomainError, fieldErrorsOf, formError } from "~/utils/errors";
import { logger } from "~/utils/logger.server";
import { fieldsOf, readForm } from "~/utils/request.server";
import { deferringEffects } from "~/utils/after-commit.server";
import { storefrontChanged } from "~/utils/storefront-changes.server";
import { afterOrdersWritten } from "~/modules/order-days/order-days.server";
import type { AdminSuccess } from "./admin-result";
import { runAudited } from "~/modules/activity/audit.server";
import { clientIp, intentWords, resolveRecord, type RecordDeclaration, type RequestContextLike } from "./admin-audit.server";

/**
 * Every admin action, one shape (DESIGN.md "Admin area"): a form names its `intent`; the dispatcher
 * 1. checks the origin and the role on the server (anyone but an admin: 403 'Admin access required', nothing read),
 *    then the intent's permission (a member of staff whose role lacks it: 403, nothing read or changed),
 * 2. reads the form through the input boundary and parses it with the page's discriminated zod schema; the first
 *    failure (in the schema's field order, which follows the spec's) is the answer, with every field's message,
 * 3. runs the intent's use case; a DomainError carries the spec's message and status, anything else is logged and
 *    answered with the intent's failure message from the spec (500), so nothing half-done is reported as done,
 * 4. tells the storefront when the intent changes what visitors see (the page cache drops its copies), and sums again
 *    the past order days it changed (the dashboard's stored sums: afterOrdersWritten),
 * 5. answers { ok: true, intent, message } for the page's transient success message.
 */
export interface AdminActionContext {
  admin: SessionUser;
  /** the whole form, for what a schema doesn't carry (uploaded files) */
  form: FormData;
}

export type AdminHandlerResult = string | { message: string; id?: string };

type IntentOf<S extends z.ZodType> = z.infer<S> extends { intent: infer I extends string } ? I : never;

export type AdminHandlers<S extends z.ZodType> = {
  [K in IntentOf<S>]: (db: DB, input: Extract<z.infer<S>, { intent: K }>, context: AdminActionContext) => Promise<AdminHandlerResult>;
};

export interface AdminActionOptions<S extends z.ZodType> {
  /**
   * what the person's role must allow (app/modules/accounts/permissions.ts): one permission for every intent of the
   * page, or one per intent (a packer may change an order's status, not refund it). Required: no admin action can
   * forget it (issue 38); the authorization matrix tries each intent as every preset role.
   */
  permission: Permission | { [K in IntentOf<S>]: Permission };
  /** the spec's failure message per intent (e.g. 'Failed to delete product') for unexpected errors */
  failure: { [K in IntentOf<S>]: string };
  /**
   * the record the intents change, for the activity log (docs/decisions/060): a record type (its id the input's `id`),
   * { type, id?, partOf?, find?, outside? }, or one per intent (null: no one record, the entry has its summary alone)
   */
  record?: RecordDeclaration<z.infer<S>> | { [K in IntentOf<S>]: RecordDeclaration<Extract<z.infer<S>, { intent: K }>> };
  /** intents that change what the storefront shows */
  storefront?: ReadonlyArray<IntentOf<S>>;
  /**
   * sensitive intents (a refund, a gift card issued or cancelled, a role changed, payment or delivery settings): when
   * the person's last proof (sign-in, or the password or a passkey asked again) is over 10 minutes old, the answer is a
   * 403 refusal that changes nothing, with `confirm` (/auth/confirm?redirect=<the page>) for the page's link (step-up,
   * docs/decisions/059). Checked after the permission and before the form is validated.
   */
  sensitive?: ReadonlyArray<IntentOf<S>>;
  /** body limit for forms with files (the product form); default: the form limit */
  maxBytes?: number;
  /**
   * fills what the form may leave out before validation (a new product's slug from its name), or gathers a repeated
   * field (checkboxes) from the whole form into one text field
   */
  prepare?: (fields: Record<string, string>, form: FormData) => Record<string, string>;
}

export function adminAction<S extends z.ZodType<{ intent: string }>>(schema: S, handlers: AdminHandlers<S>, options: AdminActionOptions<S>) {
  const action = async ({ request, context }: { request: Request; context?: RequestContextLike }) => {
    let admin = await requireAdminAction(request);
    const form = await readForm(request, { maxBytes: options.maxBytes });
    const fields = fieldsOf(form);
    // The permission is checked before the form is validated, so a refused person learns nothing from the answer.
    if (typeof options.permission === "string") admin = await requirePermissionAction(request, options.permission);
    else {
      const byIntent = options.permission as Record<string, Permission>;
      const named = Object.hasOwn(byIntent, fields.intent ?? "") ? byIntent[fields.intent!] : undefined;
      // An intent the page doesn't know (refused by the schema below) still needs one of the page's permissions.
      admin = await requirePermissionAction(request, named ?? Object.values(byIntent));
    }
    if (options.sensitive?.includes(fields.intent as IntentOf<S>) && !isRecentlyConfirmed(admin)) {
      return data(confirmationRequired(postedFrom(request)), { status: 403 });
    }
    const parsed = schema.safeParse(options.prepare ? options.prepare(fields, form) : fields);
    if (!parsed.success) {
      const fieldErrors = fieldErrorsOf(parsed.error.issues);
      return formError(parsed.error.issues[0]?.message ?? "Please check the form", 400, fieldErrors);
    }
    const input = parsed.data as z.infer<S>;
    const intent = input.intent as IntentOf<S>;
    const handler = handlers[intent] as (db: DB, input: z.infer<S>, context: AdminActionContext) => Promise<AdminHandlerResult>;
    let result: AdminHandlerResult;
    try {
      // The change and its activity-log entry in one transaction (docs/decisions/060).
      const path = new URL(request.url).pathname;
      const target = await resolveRecord(options.record, intent, input as Record<string, unknown>, getDb());
      const who = { actor: { id: admin.id, email: admin.email }, ip: clientIp(context) };
      const describe = (r: AdminHandlerResult) => (typeof r === "string" ? { message: r } : r);
      const kind = `${target.type ?? path.split("/").filter(Boolean).slice(1).join("-")}.${intent}`;
      // Cache drops and session revocations the use case raises wait for the real commit (utils/after-commit.server.ts).
      result = await deferringEffects(() => runAudited(getDb(), who, { ...target, kind, describe, doing: intentWords(intent) }, (db) => handler(db, input, { admin, form })));
    } catch (error) {
      if (error instanceof DomainError) return error.toFormError();
      logger.error({ err: error, intent, path: new URL(request.url).pathname }, "admin action failed");
      return formError(options.failure[intent], 500);
    }
    if (options.storefront?.includes(intent)) storefrontChanged(`${new URL(request.url).pathname} ${intent}`);
    // An old order changed: its day's stored sums are summed again now, not by the owner's next page (decision 043).
    await afterOrdersWritten(getDb(), `admin ${intent}`);
    const { message, id } = typeof result === "string" ? { message: result, id: undefined } : result;
    return { ok: true as const, intent, message, ...(id ? { id } : {}) } satisfies AdminSuccess;
  };
  // The page's intents and their permissions, for the authorization matrix (tests/authz: every intent is tried).
  return Object.assign(action, { intents: Object.keys(options.failure) as IntentOf<S>[], permission: options.permission });
}
