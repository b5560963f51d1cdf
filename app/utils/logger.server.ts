import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { env } from "./env.server";

/** The request being served, so every log line written while serving it carries its request id. */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** JSON logs. Secrets never reach them: passwords, tokens and cookies are redacted wherever they appear. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (env().NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "scentara" },
  mixin() {
    const scope = requestScope.getStore();
    return scope ? { requestId: scope.requestId } : {};
  },
  redact: {
    paths: ["password", "*.password", "newPassword", "*.newPassword", "currentPassword", "*.currentPassword", "*.token", "token", "req.headers.cookie", "headers.cookie", "*.authorization"],
    censor: "[redacted]",
  },
});

export type Logger = pino.Logger;
