import { resolve } from "node:path";

/** Where uploaded and generated images live on disk; served at /media. */
export function mediaRoot(): string {
  return resolve(process.env.MEDIA_DIR ?? "data/media");
}
