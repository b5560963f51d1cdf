/** Text ids for every table the shop owns (better-auth makes its own for users and sessions). */
export function newId(): string {
  return crypto.randomUUID();
}

/** Orders are shown by the first 8 characters of their id (SPEC §9). */
export function shortOrderId(id: string): string {
  return id.slice(0, 8);
}
