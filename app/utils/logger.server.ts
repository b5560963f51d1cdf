import pino from "pino";
import { env } from "./env.server";

/** JSON logs; every request gets a child logger carrying its request id (see server/app.ts). */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (env().NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "scentara" },
  redact: { paths: ["password", "*.password", "newPassword", "currentPassword", "*.token", "req.headers.cookie"], censor: "[redacted]" },
});

export type Logger = pino.Logger;
