/**
 * Slug for a new product (SPEC §5): lower case, runs of non-alphanumeric characters become '-', leading and
 * trailing '-' trimmed. Accented letters are folded to their base letter first so 'Crème Brûlée' reads 'creme-brulee'.
 */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Category slugs (SPEC §5): lower-cased, spaces turned into '-'. */
export function categorySlug(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, "-");
}

export function isSlug(value: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}
