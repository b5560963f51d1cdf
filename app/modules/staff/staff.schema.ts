import { z } from "zod";
import { emailSchema, newPasswordSchema } from "~/modules/accounts/accounts.schema";
import { ALL_PERMISSIONS, type Permission } from "~/modules/accounts/permissions";

/** Admin → Staff and the invitation page (issue 38, docs/decisions/058), browser-safe. */
export const STAFF_MESSAGES = {
  invited: (email: string) => `Invitation sent to ${email}`,
  invitedNotSent: (email: string, why: string) => `Invitation saved for ${email}, but its e-mail wasn't sent (${why}): try Resend`,
  invitedOutbox: (email: string) => `Invitation saved for ${email}. No mail server is configured, so its e-mail waits in Admin → Inbox (sent e-mails): pass its link on yourself`,
  resent: (email: string) => `A new invitation link was sent to ${email}; the old one no longer works`,
  revoked: (email: string) => `Invitation for ${email} revoked: its link no longer works`,
  roleChanged: (email: string, role: string) => `${email} is now ${role}`,
  removed: (email: string) => `${email} is no longer on the staff; their account stays a customer account`,
  roleSaved: (name: string) => `Role “${name}” saved`,
  roleDeleted: (name: string) => `Role “${name}” deleted`,
  alreadyStaff: "This person is already on the staff: change their role in the list below",
  self: "You can't change your own role or remove yourself: ask another owner",
  lastOwner: "The shop needs at least one owner: make someone else an owner first",
  listedOwner: "This address is an owner through ADMIN_EMAILS (server configuration): remove it there first",
  notStaff: "That person is not on the staff",
  noUser: "That person no longer has an account",
  noRole: "That role no longer exists",
  noInvitation: "That invitation no longer exists",
  notPending: "That invitation was already accepted",
  presetReadOnly: "The preset roles can't be changed: make a role of your own",
  roleInUse: (n: number) => `${n === 1 ? "1 person has" : `${n} people have`} this role: give them another role first`,
  roleInvited: "A pending invitation offers this role: revoke it first",
  roleNameTaken: "A role with this name already exists",
  roleNameRequired: "Give the role a name",
  roleNeedsPermission: "Tick at least one thing this role may do",
  beyondOwnRole: "You can only give what your own role allows",
  failedInvite: "Failed to send the invitation",
  failedResend: "Failed to resend the invitation",
  failedRevoke: "Failed to revoke the invitation",
  failedRole: "Failed to change the role",
  failedRemove: "Failed to remove from the staff",
  failedSaveRole: "Failed to save the role",
  failedDeleteRole: "Failed to delete the role",
  securityOn: "Two-step sign-in is now required of all staff: anyone without it sets it up at their next admin page",
  securityOff: "Two-step sign-in is no longer required of staff",
  failedSecurity: "Failed to save the sign-in settings",
} as const;

/** What the invitation page says (plainly, and nothing changes). */
export const INVITATION_MESSAGES = {
  invalid: "This invitation link isn't valid. Ask the shop's owner for a new one.",
  used: "This invitation has already been used. Sign in with the account that accepted it.",
  revoked: "This invitation was withdrawn by the shop. Ask the owner for a new one if you still need access.",
  expired: "This invitation has expired (links work for 72 hours). Ask the owner to send a new one.",
  otherAccount: (invited: string, signedIn: string) =>
    `This invitation is for ${invited}, but you're signed in as ${signedIn}. Sign out to accept it as ${invited}.`,
  accountExists: "An account with this address already exists: sign in with it to accept the invitation.",
  alreadyStaff: "You're already on the staff: open the admin.",
  welcome: (role: string) => `Welcome to the team: you joined as ${role}.`,
} as const;

const id = z.string().trim().min(1).max(100);
const roleId = z.string().trim().min(1, "Choose a role").max(100);

/** Ticked permissions arrive as one comma-separated field (adminAction's `prepare` gathers the checkboxes). */
const permissionList = z
  .string()
  .max(2000)
  .optional()
  .transform((v) => (v ?? "").split(",").map((p) => p.trim()).filter(Boolean))
  .pipe(z.array(z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]])).min(1, STAFF_MESSAGES.roleNeedsPermission));

export const staffIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: emailSchema, roleId }),
  z.object({ intent: z.literal("resend"), id }),
  z.object({ intent: z.literal("revoke"), id }),
  z.object({ intent: z.literal("role"), id, roleId }),
  z.object({ intent: z.literal("remove"), id }),
  z.object({
    intent: z.literal("saveRole"),
    id: z.string().trim().max(100).optional().default(""),
    name: z.string({ error: STAFF_MESSAGES.roleNameRequired }).trim().min(1, STAFF_MESSAGES.roleNameRequired).max(60, "Keep the name under 60 characters")
      .transform((n) => n.replace(/\s+/g, " ")),
    permissions: permissionList,
  }),
  z.object({ intent: z.literal("deleteRole"), id }),
  z.object({ intent: z.literal("security"), requireTwoStep: z.string().optional().transform((v) => v === "on" || v === "true") }),
]);

export type StaffIntent = z.infer<typeof staffIntent>;

/** The invitation page's two forms: a new person sets a password; a signed-in person of that address joins. */
export const invitationToken = z.string().trim().min(1, INVITATION_MESSAGES.invalid).max(200, INVITATION_MESSAGES.invalid);
export const acceptInvitationIntent = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), token: invitationToken, password: newPasswordSchema }),
  z.object({ intent: z.literal("join"), token: invitationToken }),
  // signed in as someone else: sign out here and come back to the invitation
  z.object({ intent: z.literal("switch"), token: invitationToken }),
]);
