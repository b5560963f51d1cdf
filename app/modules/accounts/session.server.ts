/**
 * Who is asking: the one place routes learn the signed-in user and their role. Roles are decided on the server.
 * (Interface agreed by every area; implemented on better-auth by the accounts module.)
 */
export interface SessionUser {
  id: string;
  email: string;
  isAdmin: boolean;
}

/** The signed-in user, or null for a visitor. */
export async function getSessionUser(_request: Request): Promise<SessionUser | null> {
  return null;
}

/** The signed-in user; a visitor is redirected to /auth/login?redirect=<this path>. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw new Response(null, {
      status: 302,
      headers: { Location: `/auth/login?redirect=${encodeURIComponent(url.pathname + url.search)}` },
    });
  }
  return user;
}
