import { createHash, randomBytes } from "node:crypto";
import { APIError } from "better-auth/api";
import type { DB, Queryable, Trx } from "~/db/db.server";
import { signInWithPassword, type RequestMeta } from "~/modules/accounts/accounts.server";
import { getAuth } from "~/modules/accounts/auth.server";
import { PERMISSIONS, type Permission } from "~/modules/accounts/permissions";
import { forgetUserSessions } from "~/modules/accounts/session-cache.server";
import { isListedEmail, setStaffRole, staffPermissionsOf, withAdminRoleLock } from "~/modules/accounts/staff-membership.server";
import { can } from "~/modules/accounts/permissions";
import { PERMISSION_DENIED_MESSAGE } from "~/modules/accounts/session.server";
import { recordActivity } from "~/modules/activity/activity.server";
import { NO_SMTP_REASON, sendMail } from "~/modules/mail/mailer.server";
import { env } from "~/utils/env.server";
import { DomainError } from "~/utils/errors";
import { newId } from "~/utils/ids";
import { inTransaction } from "~/db/in-transaction.server";
import { logger } from "~/utils/logger.server";
import { INVITATION_MESSAGES, STAFF_MESSAGES } from "./staff.schema";
import { INVITATION_HOURS, INVITATION_MS, INVITATION_PATH, invitationState, withinOwnRole, type InvitationState } from "./staff.logic";
import { listRoles, type StaffActor } from "./staff.server";

/**
 * Invitations to join the staff (docs/decisions/058). The e-mail carries a link with a random token (256 bits); the
 * database keeps only its SHA-256 hash, so a copy of the database opens no invitation. The link works once, for
 * INVITATION_HOURS; sending it again makes a new token (the old link stops working); revoking ends it. Accepting
 * claims the invitation with one conditional update (not accepted, not revoked, not expired) in the same transaction
 * that puts the person on the staff, so a link used twice — even at the same moment — joins once.
 */

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function invitationUrl(token: string): string {
  return `${env().PUBLIC_BASE_URL.replace(/\/+$/, "")}${INVITATION_PATH}?token=${encodeURIComponent(token)}`;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: { id: string; name: string };
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  state: Extract<InvitationState, "pending" | "expired">;
}

/** The invitations not yet accepted nor revoked (expired ones too: they can be sent again), newest first. */
export async function listInvitations(db: Queryable, now: Date = new Date()): Promise<PendingInvitation[]> {
  const rows = await db
    .selectFrom("staff_invitations as i")
    .innerJoin("staff_roles as r", "r.id", "i.role_id")
    .leftJoin("users as u", "u.id", "i.invited_by")
    .select(["i.id", "i.email", "i.role_id", "r.name as role_name", "u.email as invited_by", "i.created_at", "i.expires_at", "i.accepted_at", "i.revoked_at"])
    .where("i.accepted_at", "is", null)
    .where("i.revoked_at", "is", null)
    .orderBy("i.created_at", "desc")
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: { id: r.role_id, name: r.role_name },
    invitedBy: r.invited_by,
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    state: invitationState(r, now) === "expired" ? "expired" : "pending",
  }));
}

async function inviterPermissions(db: Queryable, actor: StaffActor): Promise<Permission[]> {
  const permissions = await staffPermissionsOf(db, actor.id);
  if (!can(permissions, "staff")) throw new DomainError(PERMISSION_DENIED_MESSAGE, 403);
  return permissions;
}

function invitationText(input: { inviter: string; role: { name: string; permissions: Permission[] }; link: string }) {
  const shop = env().SHOP_NAME;
  return [
    `${input.inviter} invited you to help run ${shop} as ${input.role.name}.`,
    "",
    `As ${input.role.name} you may:`,
    ...input.role.permissions.map((p) => `- ${PERMISSIONS[p]}`),
    "",
    `Accept the invitation here (the link works once, for ${INVITATION_HOURS} hours):`,
    input.link,
    "",
    "If you have an account with us under this e-mail address, sign in with it; if not, you'll choose a password.",
    "If you didn't expect this e-mail, ignore it: nothing happens without the link.",
  ].join("\n");
}

async function sendInvitation(db: Queryable, to: string, inviter: string, role: { name: string; permissions: Permission[] }, token: string) {
  const link = invitationUrl(token);
  return sendMail(
    {
      to,
      subject: `You're invited to join the ${env().SHOP_NAME} team`,
      text: invitationText({ inviter, role, link }),
      // the outbox keeps no working link once a mail server has it (the token is stored only as a hash)
      secret: token,
    },
    db,
  );
}

export interface InvitationSent {
  id: string;
  email: string;
  delivered: boolean;
  error?: string;
}

/** What the owner is told about an invitation's e-mail: sent, waiting in the outbox (no SMTP), or failed. */
export function sentMessage(sent: InvitationSent, delivered: string): string {
  if (sent.delivered) return delivered;
  return sent.error === NO_SMTP_REASON ? STAFF_MESSAGES.invitedOutbox(sent.email) : STAFF_MESSAGES.invitedNotSent(sent.email, sent.error ?? "");
}

/** Invites a person by e-mail with a role; an earlier pending invitation of that address is replaced (revoked). */
export async function inviteStaff(db: DB, actor: StaffActor, input: { email: string; roleId: string }, now: Date = new Date()): Promise<InvitationSent> {
  const email = input.email.trim().toLowerCase();
  const token = newToken();
  const made = await inTransaction(db, async (trx) => {
    const own = await inviterPermissions(trx, actor);
    const role = (await listRoles(trx)).find((r) => r.id === input.roleId);
    if (!role) throw new DomainError(STAFF_MESSAGES.noRole, 404, "roleId");
    if (!withinOwnRole(own, role.permissions)) throw new DomainError(STAFF_MESSAGES.beyondOwnRole, 403, "roleId");
    const user = await trx.selectFrom("users").select(["id", "is_admin"]).where("email", "=", email).executeTakeFirst();
    if ((user && user.is_admin === true) || isListedEmail(email)) throw new DomainError(STAFF_MESSAGES.alreadyStaff, 409, "email");
    const replaced = await trx
      .updateTable("staff_invitations")
      .set({ revoked_at: now.toISOString() })
      .where("email", "=", email)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .returning("id")
      .execute();
    const id = newId();
    await trx
      .insertInto("staff_invitations")
      .values({ id, email, role_id: role.id, token_hash: hashToken(token), invited_by: actor.id, created_at: now.toISOString(), expires_at: new Date(now.getTime() + INVITATION_MS).toISOString() })
      .execute();
    return { id, role };
  });
  const sent = await sendInvitation(db, email, actor.email, made.role, token);
  return { id: made.id, email, delivered: sent.delivered, error: sent.error };
}

async function openInvitation(trx: Trx, id: string, now: Date) {
  const row = await trx.selectFrom("staff_invitations").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new DomainError(STAFF_MESSAGES.noInvitation, 404);
  const state = invitationState(row, now);
  if (state === "accepted") throw new DomainError(STAFF_MESSAGES.notPending, 409);
  if (state === "revoked") throw new DomainError(STAFF_MESSAGES.noInvitation, 404);
  return row;
}

/** Sends an invitation again with a new link and a new 72 hours (the old link stops working). */
export async function resendInvitation(db: DB, actor: StaffActor, input: { id: string }, now: Date = new Date()): Promise<InvitationSent> {
  const token = newToken();
  const done = await inTransaction(db, async (trx) => {
    const own = await inviterPermissions(trx, actor);
    const row = await openInvitation(trx, input.id, now);
    const role = (await listRoles(trx)).find((r) => r.id === row.role_id);
    if (!role) throw new DomainError(STAFF_MESSAGES.noRole, 404);
    if (!withinOwnRole(own, role.permissions)) throw new DomainError(STAFF_MESSAGES.beyondOwnRole, 403);
    const expiresAt = new Date(now.getTime() + INVITATION_MS).toISOString();
    await trx.updateTable("staff_invitations").set({ token_hash: hashToken(token), expires_at: expiresAt }).where("id", "=", row.id).execute();
    return { email: row.email, role };
  });
  const sent = await sendInvitation(db, done.email, actor.email, done.role, token);
  return { id: input.id, email: done.email, delivered: sent.delivered, error: sent.error };
}

/** Withdraws an invitation: its link no longer works. */
export async function revokeInvitation(db: DB, actor: StaffActor, input: { id: string }, now: Date = new Date()) {
  return inTransaction(db, async (trx) => {
    await inviterPermissions(trx, actor);
    const row = await openInvitation(trx, input.id, now);
    await trx.updateTable("staff_invitations").set({ revoked_at: now.toISOString() }).where("id", "=", row.id).where("accepted_at", "is", null).execute();
    return { email: row.email };
  });
}

// --- the invitation page ---

export type InvitationView =
  | { state: "invalid" }
  | { state: Exclude<InvitationState, "pending">; email: string }
  | { state: "pending"; id: string; email: string; role: { id: string; name: string; permissions: Permission[] }; expiresAt: string; accountExists: boolean };

/** What a link's token opens (for the page, read-only). */
export async function readInvitation(db: Queryable, token: string, now: Date = new Date()): Promise<InvitationView> {
  if (!token || token.length > 200) return { state: "invalid" };
  const row = await db.selectFrom("staff_invitations").selectAll().where("token_hash", "=", hashToken(token)).executeTakeFirst();
  if (!row) return { state: "invalid" };
  const state = invitationState(row, now);
  if (state !== "pending") return { state, email: row.email };
  const role = (await listRoles(db)).find((r) => r.id === row.role_id);
  if (!role) return { state: "invalid" };
  const account = await db.selectFrom("users").select("id").where("email", "=", row.email).executeTakeFirst();
  return { state, id: row.id, email: row.email, role: { id: role.id, name: role.name, permissions: role.permissions }, expiresAt: new Date(row.expires_at).toISOString(), accountExists: !!account };
}

function refusalOf(view: InvitationView): DomainError | null {
  switch (view.state) {
    case "pending":
      return null;
    case "accepted":
      return new DomainError(INVITATION_MESSAGES.used, 410);
    case "revoked":
      return new DomainError(INVITATION_MESSAGES.revoked, 410);
    case "expired":
      return new DomainError(INVITATION_MESSAGES.expired, 410);
    default:
      return new DomainError(INVITATION_MESSAGES.invalid, 404);
  }
}

/** Claims the invitation (once, only while usable) and puts the user on the staff with its role, in one transaction. */
async function join(db: DB, token: string, user: { id: string; email: string }, now: Date) {
  return withAdminRoleLock(db, async (trx) => {
    const view = await readInvitation(trx, token, now);
    const refusal = refusalOf(view);
    if (refusal || view.state !== "pending") throw refusal!;
    if (view.email !== user.email.toLowerCase()) throw new DomainError(INVITATION_MESSAGES.otherAccount(view.email, user.email), 403);
    const row = await trx.selectFrom("users").select(["is_admin"]).where("id", "=", user.id).executeTakeFirstOrThrow();
    if (row.is_admin === true || isListedEmail(user.email)) throw new DomainError(INVITATION_MESSAGES.alreadyStaff, 409);
    const claimed = await trx
      .updateTable("staff_invitations")
      .set({ accepted_at: now.toISOString(), accepted_user_id: user.id })
      .where("id", "=", view.id)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new DomainError(INVITATION_MESSAGES.used, 410);
    await setStaffRole(trx, user.id, view.role.id, now);
    await recordActivity(trx, {
      actor: { id: user.id, email: user.email },
      kind: "staff.invitation-accepted",
      record: { type: "user", id: user.id },
      summary: `${user.email} accepted the invitation and joined the staff as ${view.role.name}`,
      before: { isAdmin: false, role: null },
      after: { isAdmin: true, role: { id: view.role.id, name: view.role.name }, invitation: view.id },
      at: now,
    });
    return { role: view.role.name };
  });
}

/** A person already signed in with the invited address joins with it. */
export async function acceptAsSignedIn(db: DB, token: string, user: { id: string; email: string }, now: Date = new Date()) {
  const joined = await join(db, token, user, now);
  forgetUserSessions(user.id); // their next request (the admin) reads the role
  return joined;
}

/**
 * A new person sets a password: the account is made (its address proved by the link), joins the staff with the
 * invitation's role, and is signed in. An address that has an account already is told to sign in with it.
 */
export async function acceptWithNewAccount(db: DB, input: { token: string; password: string }, meta: RequestMeta, now: Date = new Date()) {
  const view = await readInvitation(db, input.token, now);
  const refusal = refusalOf(view);
  if (refusal || view.state !== "pending") throw refusal!;
  if (view.accountExists) throw new DomainError(INVITATION_MESSAGES.accountExists, 409);
  let userId: string;
  try {
    const made = await getAuth().api.signUpEmail({ body: { email: view.email, password: input.password, name: "" } });
    userId = made.user.id;
  } catch (error) {
    logger.warn({ err: error instanceof APIError ? error.message : error }, "invited account could not be made");
    throw new DomainError(STAFF_MESSAGES.failedInvite, 400);
  }
  // a sign-up racing another one for the address gets a made-up user back: nothing was stored under its id
  const row = await db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
  if (!row) throw new DomainError(INVITATION_MESSAGES.accountExists, 409);
  await db.updateTable("users").set({ email_verified: true }).where("id", "=", row.id).execute();
  const joined = await join(db, input.token, row, now);
  const { setCookies } = await signInWithPassword(db, { email: row.email, password: input.password }, { ...meta, cookie: null });
  return { ...joined, setCookies };
}
