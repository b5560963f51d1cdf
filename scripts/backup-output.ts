/** What `npm run backup` and `npm run restore` print about a database's tables. */

/** Two columns of "table  rows", right-aligned counts. */
export function tableLines(tables: ReadonlyArray<{ name: string; rows: number }>): string {
  const width = Math.max(...tables.map((t) => t.name.length), 5);
  const digits = Math.max(...tables.map((t) => String(t.rows).length), 1);
  return tables.map((t) => `    ${t.name.padEnd(width)}  ${String(t.rows).padStart(digits)}`).join("\n");
}
