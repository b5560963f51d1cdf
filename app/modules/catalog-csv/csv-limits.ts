/** The product import's limits (browser-safe, no imports: the HTTP server's body limit reads them too). */

/** An import holds at most this many product rows: it is one transaction, previewed row by row. */
export const MAX_IMPORT_ROWS = 20_000;
/** The largest file an import accepts (a 20 000-row WooCommerce export with long descriptions fits). */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
/** The import form's body: the file plus the multipart envelope (the HTTP server's limit for the import page). */
export const MAX_IMPORT_UPLOAD_BYTES = MAX_IMPORT_BYTES + 64 * 1024;
