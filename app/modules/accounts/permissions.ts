/**
 * What a member of staff may do (issue 38, docs/decisions/058). Browser-safe: the admin's menu and buttons read it to
 * show only what the person may do; the server checks the same names on every admin loader and action
 * (session.server's requirePermission, admin-action.server's `permission`).
 *
 * A permission is named for what a person does in the shop, not for a table: a packer "changes an order's status and
 * books the courier"; the refund is someone else's. A role is a set of them; the five presets below are the shop's
 * own and cannot be edited (the owner makes a role of their own by ticking permissions).
 */
export const PERMISSIONS = {
  "orders.view": "See orders and their customers' delivery details",
  "orders.fulfil": "Change an order's status, book the courier and print labels",
  "orders.money": "Refund, approve returns and change payments and order totals",
  "products.edit": "Edit products, prices, sizes, stock, categories, tiers and samples",
  "products.io": "Export and import products (CSV)",
  coupons: "Manage coupons",
  "gift-cards": "Issue, correct and cancel gift cards",
  marketing: "Send announcements, reminders and WhatsApp messages, and see their reports",
  reviews: "Moderate reviews",
  reports: "See sales reports, export orders for the accountant, invoices and credit notes",
  customers: "See customers and the inbox, and change their accounts",
  staff: "Invite staff, change their roles and see the activity log",
  settings: "Change shop settings, delivery zones, couriers and payments",
  data: "Download backups and customers' data, and answer data requests",
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(PERMISSIONS, value);
}

/** The shop's preset roles; their ids are fixed (the migration writes them, ADMIN_EMAILS and create-admin use "owner"). */
export const PRESET_ROLES = {
  owner: { name: "Owner", permissions: ALL_PERMISSIONS },
  manager: {
    name: "Manager",
    permissions: ALL_PERMISSIONS.filter((p) => p !== "staff" && p !== "data" && p !== "settings"),
  },
  packer: { name: "Packer", permissions: ["orders.view", "orders.fulfil"] as Permission[] },
  marketer: { name: "Marketer", permissions: ["coupons", "marketing", "reviews"] as Permission[] },
  bookkeeper: { name: "Bookkeeper", permissions: ["reports", "orders.view"] as Permission[] },
} as const satisfies Record<string, { name: string; permissions: readonly Permission[] }>;

export type PresetRoleId = keyof typeof PRESET_ROLES;
export const OWNER_ROLE_ID: PresetRoleId = "owner";

export function isPresetRole(id: string): id is PresetRoleId {
  return Object.hasOwn(PRESET_ROLES, id);
}

/** The permissions as a role row stores them (a JSON array), read back defensively: unknown names are dropped. */
export function parsePermissions(value: unknown): Permission[] {
  const list = typeof value === "string" ? safeJson(value) : value;
  if (!Array.isArray(list)) return [];
  return ALL_PERMISSIONS.filter((p) => list.includes(p));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return [];
  }
}

/** Does this set of permissions include `needed` (one name, or any of several)? */
export function can(permissions: readonly string[] | undefined, needed: Permission | readonly Permission[]): boolean {
  if (!permissions) return false;
  return typeof needed === "string" ? permissions.includes(needed) : needed.some((p) => permissions.includes(p));
}
