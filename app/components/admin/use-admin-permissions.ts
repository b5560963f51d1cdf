import { useRouteLoaderData } from "react-router";
import { can, type Permission } from "~/modules/accounts/permissions";

/** What the admin layout's loader (app/routes/admin.tsx) tells every admin page about the person. */
export interface AdminPermissionsData {
  permissions: readonly Permission[];
  role: string | null;
}

/**
 * The signed-in member of staff's permissions, for hiding what their role can't do (issue 38): a button whose intent
 * would answer 403 is not shown. The server decides either way (requirePermission, adminAction's `permission`);
 * this only keeps the page honest about it.
 */
export function useAdminPermissions(): AdminPermissionsData & { known: boolean; can: (needed: Permission | readonly Permission[]) => boolean } {
  const data = useRouteLoaderData("routes/admin") as AdminPermissionsData | undefined;
  const permissions = data?.permissions ?? [];
  return { permissions, role: data?.role ?? null, known: data !== undefined, can: (needed) => can(permissions, needed) };
}

/** May the signed-in member of staff do this (one permission, or any of several)? */
export function useCan(needed: Permission | readonly Permission[]): boolean {
  return useAdminPermissions().can(needed);
}
