import { z } from "zod";
import { ARCHIVE_FORMAT } from "./backups.logic";

/**
 * The manifest of a backup archive (`manifest.json`, the archive's last entry, and a copy beside the archive):
 * what is in it and how to check it. docs/decisions/033.
 */
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 in hex");
const name = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/);
const count = z.number().int().min(0);

export const manifestTableSchema = z.object({
  name,
  /** column names, sorted: every row of the table has exactly these keys */
  columns: z.array(name).min(1),
  primary_key: z.array(name),
  rows: count,
  /** SHA-256 of the table's rows, one canonical JSON line each ("\n"-terminated), in primary-key order */
  sha256,
  /** how many `tables/<name>/NNNNNN.jsonl` entries hold the rows (0 for an empty table) */
  parts: count,
});

export const manifestMediaFileSchema = z.object({ path: z.string().min(1).max(1024), size: count, sha256 });

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  format_version: z.number().int().min(1),
  created_at: z.iso.datetime(),
  source_database: z.enum(["sqlite", "postgres"]),
  /** the schema_migrations names applied to the source, in order: the schema version of the rows */
  migrations: z.array(z.string().min(1).max(200)),
  /** in restore order: every table after the tables it references */
  tables: z.array(manifestTableSchema),
  /** tables deliberately not backed up (docs/decisions/033) */
  excluded_tables: z.array(name),
  media: z.object({
    storage: z.enum(["local", "s3"]),
    /** false with S3: the bucket is its own backup, the archive holds no images */
    included: z.boolean(),
    note: z.string().optional(),
    files: z.array(manifestMediaFileSchema),
    bytes: count,
    /** files found in the media folder that are not media the shop serves (temporary files, odd names): left out */
    skipped: z.array(z.string()).default([]),
  }),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestTable = z.infer<typeof manifestTableSchema>;
export type ManifestMediaFile = z.infer<typeof manifestMediaFileSchema>;
