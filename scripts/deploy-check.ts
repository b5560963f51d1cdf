/**
 * The checks of `npm run check:deploy`. scripts/deploy-check.sh starts docs/deploy.md's setup (nginx with
 * deploy/nginx/scentara.conf, two app servers as deploy/systemd/scentara@.service starts them, one PostgreSQL) and
 * runs this with DC_* variables saying where everything is. Every request goes over the network as a shopper's would:
 * through nginx over TLS, trusting only the check's own CA, from chosen client addresses (127.0.0.2, 127.0.0.3: all of
 * 127/8 is this machine), or, to pin a request to one app server, straight to it with the headers nginx would send.
 * Prints PASS/FAIL per check; exits 1 when any fails.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";
import { parseEnv as parseEnvFile } from "node:util";
import { parseEnv } from "../app/utils/env.server";

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run scripts/deploy-check.sh (npm run check:deploy), which sets it`);
  return value;
}

const NAME = setting("DC_NAME");
const HTTPS_PORT = Number(setting("DC_HTTPS_PORT"));
const HTTP_PORT = Number(setting("DC_HTTP_PORT"));
const APP = { A: Number(setting("DC_APP_A")), B: Number(setting("DC_APP_B")) };
const CA = readFileSync(setting("DC_CA"));
const WORK = setting("DC_WORK");
const START_APP = setting("DC_START_APP");
const ENV_FILE = setting("DC_ENV_FILE");
const ENV_EXAMPLE = setting("DC_ENV_EXAMPLE");
const ADMIN_EMAIL = setting("DC_ADMIN_EMAIL");
const ADMIN_PASSWORD = setting("DC_ADMIN_PASSWORD");
const ORIGIN = `https://${NAME}:${HTTPS_PORT}`;
/** Client addresses: the attacker guessing passwords, and the owner signing in from elsewhere. */
const ATTACKER = "127.0.0.2";
const OWNER = "127.0.0.3";

// ---------------------------------------------------------------------------------------------------------------
// Requests

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
interface Options {
  method?: string;
  headers?: Record<string, string>;
  /** a form, sent as application/x-www-form-urlencoded */
  form?: URLSearchParams;
  /** the client's address (a loopback address of this machine) */
  from?: string;
}

/** Every Set-Cookie any response carried, to check each of them. */
const cookiesSeen: string[] = [];

function header(reply: Reply, name: string): string | undefined {
  const value = reply.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
function setCookies(reply: Reply): string[] {
  const value = reply.headers["set-cookie"];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function bodyHeaders(options: Options): Record<string, string> {
  if (!options.form) return {};
  return { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(options.form.toString())) };
}

function collect(res: http.IncomingMessage, resolve: (reply: Reply) => void, reject: (error: Error) => void) {
  const chunks: Buffer[] = [];
  res.on("data", (chunk: Buffer) => chunks.push(chunk));
  res.on("error", reject);
  res.on("end", () => {
    const reply = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") };
    cookiesSeen.push(...setCookies(reply));
    resolve(reply);
  });
}

/** HTTPS (HTTP/1.1) through nginx, checking its certificate against the check's CA only. */
function viaNginx(path: string, options: Options = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: "127.0.0.1",
        port: HTTPS_PORT,
        servername: NAME,
        ca: CA,
        localAddress: options.from ?? "127.0.0.1",
        agent: false,
        method: options.method ?? (options.form ? "POST" : "GET"),
        path,
        headers: { host: `${NAME}:${HTTPS_PORT}`, ...bodyHeaders(options), ...options.headers },
        timeout: 15_000,
      },
      (res) => collect(res, resolve, reject),
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.end(options.form?.toString());
  });
}

/** HTTPS over HTTP/2 through nginx, as a browser talks to it. */
function viaNginxH2(path: string, options: Options = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(ORIGIN, {
      // TLS over a TCP connection from the chosen client address.
      createConnection: () =>
        tls.connect({ socket: net.connect({ host: "127.0.0.1", port: HTTPS_PORT, localAddress: options.from ?? "127.0.0.1" }), servername: NAME, ca: CA, ALPNProtocols: ["h2"] }),
    });
    session.on("error", reject);
    const req = session.request({
      ":method": options.method ?? (options.form ? "POST" : "GET"),
      ":path": path,
      ...bodyHeaders(options),
      ...options.headers,
    });
    const chunks: Buffer[] = [];
    let head: http2.IncomingHttpHeaders & http2.IncomingHttpStatusHeader = {};
    req.on("response", (h) => (head = h));
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("error", reject);
    req.on("end", () => {
      session.close();
      const { ":status": status, ...headers } = head;
      const reply = { status: Number(status), headers: headers as Reply["headers"], body: Buffer.concat(chunks).toString("utf8") };
      cookiesSeen.push(...setCookies(reply));
      resolve(reply);
    });
    req.end(options.form?.toString());
  });
}

/** Plain HTTP to an address (nginx's port 80, or one app server). */
function plain(port: number, path: string, options: Options = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        localAddress: options.from ?? "127.0.0.1",
        agent: false,
        method: options.method ?? (options.form ? "POST" : "GET"),
        path,
        headers: { ...bodyHeaders(options), ...options.headers },
        timeout: 15_000,
      },
      (res) => collect(res, resolve, reject),
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.end(options.form?.toString());
  });
}

/** Straight to one app server, with the headers nginx sends it: pins a request to that server. */
function direct(server: keyof typeof APP, path: string, options: Options = {}): Promise<Reply> {
  return plain(APP[server], path, {
    ...options,
    from: "127.0.0.1",
    headers: { host: `${NAME}:${HTTPS_PORT}`, "x-forwarded-proto": "https", "x-forwarded-for": options.from ?? OWNER, ...options.headers },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Logs

interface LogLine {
  msg?: string;
  requestId?: string;
  ip?: string;
  path?: string;
  status?: number;
}
function appLog(server: keyof typeof APP): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of readFileSync(`${WORK}/log/app-${APP[server]}.log`, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // a line cut short while being written
    }
  }
  return lines;
}
/** The app's request line for a request id, and the server that wrote it. */
function requestLine(requestId: string): { server: keyof typeof APP; line: LogLine } | undefined {
  for (const server of ["A", "B"] as const) {
    const line = appLog(server).find((l) => l.msg === "request" && l.requestId === requestId);
    if (line) return { server, line };
  }
  return undefined;
}
async function eventually<T>(read: () => T | undefined, ms = 2000): Promise<T | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined || Date.now() > until) return value;
    await sleep(50);
  }
}
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// ---------------------------------------------------------------------------------------------------------------
// Checks

let failures = 0;
async function check(name: string, run: () => Promise<string | void>) {
  const started = Date.now();
  try {
    const detail = await run();
    console.log(`PASS  ${name}${detail ? `\n      ${detail.replaceAll("\n", "\n      ")}` : ""}  (${Date.now() - started} ms)`);
  } catch (error) {
    failures++;
    console.log(`FAIL  ${name}\n      ${error instanceof Error ? error.message.replaceAll("\n", "\n      ") : String(error)}`);
  }
}
function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
const attributes = (tag: string) => Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), decode(m[2]!)]));

/** The fields a browser would send from the form posting to `action`, as the server rendered it. */
function formFields(html: string, action: string): URLSearchParams {
  const at = html.indexOf(`action="${action}"`);
  expect(at >= 0, `no form posting to ${action} on the page`);
  const form = html.slice(html.lastIndexOf("<form", at), html.indexOf("</form>", at));
  const fields = new URLSearchParams();
  for (const [, tag] of form.matchAll(/<input\b([^>]*)>/g)) {
    const a = attributes(tag!);
    if (!a.name || ["file", "submit", "button", "image", "reset"].includes(a.type ?? "")) continue;
    if ((a.type === "checkbox" || a.type === "radio") && !("checked" in a)) continue;
    fields.append(a.name, a.value ?? "");
  }
  for (const [, tag, text] of form.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const a = attributes(tag!);
    if (a.name) fields.append(a.name, decode(text!));
  }
  for (const [, tag, options] of form.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const a = attributes(tag!);
    const all = [...options!.matchAll(/<option\b([^>]*)>/g)].map((m) => attributes(m[1]!));
    const chosen = all.find((o) => "selected" in o) ?? all[0];
    if (a.name && chosen) fields.append(a.name, chosen.value ?? "");
  }
  return fields;
}

const sessionCookie = (reply: Reply) => setCookies(reply).find((c) => /^__Secure-scentara\.session_token=/.test(c));

async function main() {
  console.log(`Checking https://${NAME}:${HTTPS_PORT} (nginx) in front of app servers A (:${APP.A}) and B (:${APP.B})`);

  await check("deploy/scentara.env.example names real settings only, and every setting a deployment may need", async () => {
    const source = readFileSync(new URL("../app/utils/env.server.ts", import.meta.url), "utf8");
    const known = new Set([...source.matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1]!));
    const elsewhere = new Set(["WEB_CONCURRENCY", "MEDIA_DIR"]); // server/cluster.ts, app/modules/media/media-paths.server.ts
    // From the unit (PORT, NODE_ENV, HOST), tests only, or hosts of the providers' APIs (their defaults are the real ones).
    const notNeeded = new Set(["NODE_ENV", "PORT", "HOST", "SIMULATED_WEBHOOK_SECRET", "JOBS_EVERY_SECONDS", "PAYFAST_BASE_URL", "YOCO_API_BASE", "OZOW_PAY_URL", "OZOW_API_BASE", "SHIPLOGIC_API_BASE", "PUDO_API_BASE", "PARGO_API_BASE"]);
    const named = new Set([...readFileSync(ENV_EXAMPLE, "utf8").matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!));
    const unknown = [...named].filter((k) => !known.has(k) && !elsewhere.has(k));
    const missing = [...known].filter((k) => !named.has(k) && !notNeeded.has(k));
    expect(unknown.length === 0, `not settings of the shop (app/utils/env.server.ts): ${unknown.join(", ")}`);
    expect(missing.length === 0, `settings of the shop the example doesn't mention: ${missing.join(", ")}`);
    return `${named.size} settings named; all known to app/utils/env.server.ts`;
  });

  await check("as shipped, the example refuses to start, and names what to fill in", async () => {
    const shipped = parseEnvFile(readFileSync(ENV_EXAMPLE, "utf8")) as Record<string, string>;
    let refusal = "";
    try {
      parseEnv({ ...shipped, NODE_ENV: "production" });
    } catch (error) {
      refusal = (error as Error).message;
    }
    expect(refusal, "the shipped example was accepted (it has no AUTH_SECRET or payment keys)");
    const filled = {
      ...shipped,
      NODE_ENV: "production",
      AUTH_SECRET: "x".repeat(43),
      YOCO_SECRET_KEY: "sk_live_x",
      YOCO_WEBHOOK_SECRET: "whsec_eA==",
      SHIPLOGIC_API_KEY: "k",
      PUDO_API_KEY: "k",
      PARGO_USERNAME: "u",
      PARGO_PASSWORD: "p",
    };
    parseEnv(filled); // throws when anything else in the example is wrong
    return `refused with: ${refusal.split("\n").slice(1).join(" / ").trim()}\nwith AUTH_SECRET and the payment and courier keys filled in, it is a valid production configuration`;
  });

  await check("the app servers run with the environment file's settings only", async () => {
    const file = parseEnvFile(readFileSync(ENV_FILE, "utf8")) as Record<string, string>;
    expect(file.TRUST_PROXY === "1", `TRUST_PROXY is ${file.TRUST_PROXY}`);
    expect(file.PUBLIC_BASE_URL === ORIGIN, `PUBLIC_BASE_URL is ${file.PUBLIC_BASE_URL}`);
    const listening = appLog("A").find((l) => l.msg?.startsWith("Scentara is listening")) as (LogLine & { publicUrl?: string }) | undefined;
    expect(listening?.publicUrl === ORIGIN, `server A's start line: ${JSON.stringify(listening)}`);
    return `TRUST_PROXY=1, PUBLIC_BASE_URL=${ORIGIN}, DATABASE_URL=postgres://scentara:***@…, MEDIA_STORAGE=${file.MEDIA_STORAGE}`;
  });

  await check("TLS: nginx presents the shop's certificate, valid for its name under the local CA, and offers HTTP/2", async () => {
    const socket = tls.connect({ host: "127.0.0.1", port: HTTPS_PORT, servername: NAME, ca: CA, ALPNProtocols: ["h2", "http/1.1"] });
    await new Promise<void>((resolve, reject) => {
      socket.once("secureConnect", resolve);
      socket.once("error", reject);
    });
    const cert = socket.getPeerCertificate();
    const details = { authorized: socket.authorized, protocol: socket.getProtocol(), alpn: socket.alpnProtocol, subject: cert.subject?.CN, san: cert.subjectaltname };
    socket.destroy();
    expect(details.authorized, `certificate not trusted: ${JSON.stringify(details)}`);
    expect(details.alpn === "h2", `ALPN chose ${details.alpn}`);
    expect(details.protocol === "TLSv1.3", `protocol ${details.protocol} (a TLS 1.3 client should get TLS 1.3)`);
    return `${details.protocol}, ALPN ${details.alpn}, CN=${details.subject}, ${details.san}`;
  });

  await check("a name that isn't the shop's gets no answer (TLS refused, plain HTTP closed)", async () => {
    const tlsError = await new Promise<string>((resolve) => {
      const socket = tls.connect({ host: "127.0.0.1", port: HTTPS_PORT, servername: "not-the-shop.test", ca: CA, rejectUnauthorized: false });
      socket.once("secureConnect", () => {
        socket.destroy();
        resolve("");
      });
      socket.once("error", (error) => resolve(error.message));
    });
    expect(tlsError, "the TLS handshake for another name succeeded");
    const httpError = await plain(HTTP_PORT, "/", { headers: { host: "127.0.0.1" } }).then(
      (reply) => `answered ${reply.status}`,
      (error: Error) => error.message,
    );
    expect(!httpError.startsWith("answered"), `plain HTTP for 127.0.0.1 ${httpError}`);
    return `TLS: ${tlsError.split("\n")[0]}; HTTP: ${httpError}`;
  });

  let homeHtml = "";
  await check("HTTPS / answers 200 with the shop's home page, over HTTP/2", async () => {
    const reply = await viaNginxH2("/");
    homeHtml = reply.body;
    expect(reply.status === 200, `status ${reply.status}`);
    expect(/<title>[^<]*Scentara/.test(reply.body), "no Scentara title in the page");
    return `200, ${reply.body.length} bytes of HTML`;
  });

  await check("HTTPS /healthz answers 200 {\"status\":\"ok\"}", async () => {
    const reply = await viaNginx("/healthz");
    expect(reply.status === 200 && JSON.parse(reply.body).status === "ok", `${reply.status} ${reply.body}`);
    return `${reply.status} ${reply.body}`;
  });

  await check("http:// redirects to https:// (301, same path and query)", async () => {
    const reply = await plain(HTTP_PORT, "/shop?sort=price-asc", { headers: { host: `${NAME}:${HTTP_PORT}` } });
    // The recipe's nginx listens on 443, so the address has no port.
    const expected = `https://${NAME}/shop?sort=price-asc`;
    expect(reply.status === 301 && header(reply, "location") === expected, `${reply.status} Location: ${header(reply, "location")}`);
    return `301 Location: ${expected}`;
  });

  await check("Strict-Transport-Security on HTTPS answers (max-age of a year or more)", async () => {
    const replies = [await viaNginx("/"), await viaNginx("/shop"), await viaNginx("/no-such-page")];
    for (const reply of replies) {
      const hsts = header(reply, "strict-transport-security") ?? "";
      const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0);
      expect(maxAge >= 31_536_000, `status ${reply.status}: Strict-Transport-Security "${hsts}"`);
      expect(!hsts.includes(","), `sent twice: "${hsts}"`);
    }
    return `${header(replies[0]!, "strict-transport-security")} (on /, /shop and a 404)`;
  });

  // Wrong passwords from one client address, each with a forged X-Forwarded-For that nginx must not pass on.
  const wrong = new URLSearchParams({ email: ADMIN_EMAIL, password: "not-the-password-1" });
  const attempts: Array<{ status: number; requestId: string; body: string }> = [];
  await check(`sign-in is throttled per client address: 8 wrong passwords from ${ATTACKER} answer 401, the 9th 429`, async () => {
    for (let i = 1; i <= 9; i++) {
      const reply = await viaNginx("/auth/login", { form: wrong, from: ATTACKER, headers: { origin: ORIGIN, "x-forwarded-for": `198.51.100.${i}` } });
      attempts.push({ status: reply.status, requestId: header(reply, "x-request-id") ?? "", body: reply.body });
    }
    const statuses = attempts.map((a) => a.status);
    expect(statuses.slice(0, 8).every((s) => s === 401) && statuses[8] === 429, `statuses ${statuses.join(" ")}`);
    const message = /Too many attempts[^<]*/.exec(attempts[8]!.body)?.[0];
    expect(message, "the 429 page doesn't say 'Too many attempts'");
    return `${statuses.join(" ")}: "${message}" (a new forged X-Forwarded-For on each try changed nothing)`;
  });

  await check(`the app logs each request with the client's address (${ATTACKER}), not nginx's or a forged one; nginx's line has the same request id`, async () => {
    expect(attempts.length === 9, "no sign-in attempts to look up");
    const servedBy = { A: 0, B: 0 };
    for (const attempt of attempts) {
      expect(attempt.requestId, "a response without X-Request-Id");
      const found = await eventually(() => requestLine(attempt.requestId));
      expect(found, `no app log line with requestId ${attempt.requestId}`);
      expect(found.line.ip === ATTACKER, `request ${attempt.requestId} logged with ip ${JSON.stringify(found.line.ip)}`);
      servedBy[found.server]++;
    }
    const nginxLog = readFileSync(`${WORK}/log/nginx-scentara.access.log`, "utf8").split("\n");
    const nginxLine = nginxLog.find((l) => l.includes(`rid=${attempts[0]!.requestId}`));
    expect(nginxLine?.startsWith(`${ATTACKER} `), `nginx's access log line: ${nginxLine}`);
    expect(servedBy.A > 0 && servedBy.B > 0, `all attempts went to one server: ${JSON.stringify(servedBy)}`);
    const sample = requestLine(attempts[0]!.requestId)!;
    return (
      `app log (server ${sample.server}): ${JSON.stringify({ msg: sample.line.msg, requestId: sample.line.requestId, path: sample.line.path, status: sample.line.status, ip: sample.line.ip })}\n` +
      `nginx: ${nginxLine!.slice(0, 160)}\n` +
      `the 9 attempts went to A ${servedBy.A}, B ${servedBy.B} times: the limit is counted in the shared database`
    );
  });

  let cookie = "";
  await check(`the owner signs in from another address (${OWNER}) over HTTP/2 while ${ATTACKER} is throttled`, async () => {
    const reply = await viaNginxH2("/auth/login", { form: new URLSearchParams({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }), from: OWNER, headers: { origin: ORIGIN } });
    expect(reply.status === 302, `status ${reply.status}: ${/Too many attempts[^<]*/.exec(reply.body)?.[0] ?? reply.body.slice(0, 200)}`);
    const session = sessionCookie(reply);
    expect(session, `no session cookie: ${JSON.stringify(setCookies(reply))}`);
    cookie = session.split(";")[0]!;
    return `302 to ${header(reply, "location")}`;
  });

  await check("the session cookie is __Secure-, Secure, HttpOnly and SameSite=Lax; every cookie the run received is Secure", async () => {
    const session = cookiesSeen.find((c) => /^__Secure-scentara\.session_token=/.test(c));
    expect(session, "no session cookie was received");
    const attributes = session.split(";").slice(1).map((a) => a.trim().toLowerCase());
    for (const wanted of ["secure", "httponly", "samesite=lax"]) expect(attributes.includes(wanted), `session cookie lacks ${wanted}: ${session.replace(/=[^;]+/, "=…")}`);
    const insecure = cookiesSeen.filter((c) => !c.split(";").some((a) => a.trim().toLowerCase() === "secure"));
    expect(insecure.length === 0, `cookies without Secure: ${insecure.map((c) => c.split("=")[0]).join(", ")}`);
    return `${session.replace(/=[^;]+/, "=…")}; ${cookiesSeen.length} Set-Cookie header(s) in all, all Secure`;
  });

  await check("the signed-in owner reaches /admin through nginx on both app servers", async () => {
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const reply = await viaNginx("/admin", { headers: { cookie }, from: OWNER });
      expect(reply.status === 200, `status ${reply.status}`);
      const found = await eventually(() => requestLine(header(reply, "x-request-id") ?? ""));
      if (found) served.add(found.server);
    }
    expect(served.size === 2, `served only by ${[...served].join(", ")}`);
    return "4 × 200, served by A and B";
  });

  let imagePath = "";
  await check("a price changed through server A is shown by server B", async () => {
    expect(cookie, "not signed in");
    const list = await direct("A", "/admin/products", { headers: { cookie } });
    expect(list.status === 200, `A: /admin/products ${list.status}`);
    const id = /href="\/admin\/products\/edit\/([^"]+)"/.exec(list.body)?.[1];
    expect(id, "no product to edit");
    const action = `/admin/products/edit/${id}`;
    const edit = await direct("A", action, { headers: { cookie } });
    expect(edit.status === 200, `A: ${action} ${edit.status}`);
    const fields = formFields(edit.body, action);
    const slug = fields.get("slug");
    const oldPrice = fields.get("price");
    imagePath = (JSON.parse(fields.get("images") ?? "[]") as string[])[0] ?? "";
    expect(slug && oldPrice, `the form has no slug or price: ${fields.toString().slice(0, 200)}`);
    let newPrice: string;
    do newPrice = `${101 + Math.floor(Math.random() * 800)}.${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
    while (newPrice === oldPrice);

    // B's visitors have the page cached with the old price.
    const productPath = `/products/${slug}`;
    await direct("B", productPath);
    const before = await direct("B", productPath);
    expect(before.status === 200 && header(before, "x-page-cache") === "HIT", `B: ${productPath} ${before.status}, X-Page-Cache ${header(before, "x-page-cache")}`);
    expect(!before.body.includes(`R${newPrice}<`), "B shows the new price before it was set");

    fields.set("price", newPrice);
    const saved = await direct("A", action, { form: fields, headers: { cookie, origin: ORIGIN } });
    expect(saved.status === 200 && saved.body.includes("Product updated successfully!"), `A: saving answered ${saved.status}: ${saved.body.slice(0, 300)}`);
    const savedAt = Date.now();

    let seenAfter = -1;
    for (const until = Date.now() + 5000; Date.now() < until; ) {
      const page = await direct("B", productPath);
      if (page.body.includes(`R${newPrice}`)) {
        seenAfter = Date.now() - savedAt;
        break;
      }
      await sleep(25);
    }
    expect(seenAfter >= 0, `B still showed the old price R${oldPrice} 5 s after A saved R${newPrice}`);
    const throughNginx = await Promise.all([viaNginx(productPath), viaNginx(productPath)]);
    expect(throughNginx.every((r) => r.body.includes(`R${newPrice}`)), "a page through nginx lacks the new price");
    return `${slug}: R${oldPrice} → R${newPrice} saved on A; on B's (cached) product page ${seenAfter} ms later, and through nginx`;
  });

  await check("nginx keeps the build's assets and the product images (X-Cache-Status HIT), each encoding apart", async () => {
    // A script with a brotli copy (the build leaves small files without one).
    const scripts = [...new Set([...homeHtml.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!))];
    let asset = "";
    let br1: Reply | undefined;
    for (const candidate of scripts) {
      br1 = await viaNginx(candidate, { headers: { "accept-encoding": "br" } });
      if (header(br1, "content-encoding") === "br") {
        asset = candidate;
        break;
      }
    }
    expect(asset && br1, `none of the home page's ${scripts.length} scripts came with brotli when asked`);
    const br2 = await viaNginx(asset, { headers: { "accept-encoding": "br" } });
    const plain1 = await viaNginx(asset);
    const plain2 = await viaNginx(asset);
    expect(br2.status === 200 && header(br2, "x-cache-status") === "HIT", `second brotli request: ${br2.status} X-Cache-Status ${header(br2, "x-cache-status")}`);
    expect(header(br1, "content-encoding") === "br" && header(br2, "content-encoding") === "br", "brotli asked, not given");
    expect(header(plain1, "content-encoding") === undefined && header(plain2, "content-encoding") === undefined, `no encoding asked, got ${header(plain2, "content-encoding")}`);
    expect(/^[\x09\x0a\x0d\x20-\x7e]{20}/.test(plain2.body), "the plain copy isn't plain text");
    expect(/immutable/.test(header(br2, "cache-control") ?? ""), `Cache-Control ${header(br2, "cache-control")}`);
    const lines = [`${asset}: br ${header(br1, "x-cache-status")} → ${header(br2, "x-cache-status")}, plain ${header(plain1, "x-cache-status")} → ${header(plain2, "x-cache-status")}; ${header(br2, "cache-control")}`];
    if (imagePath.startsWith("/media/")) {
      const image1 = await viaNginx(imagePath);
      const image2 = await viaNginx(imagePath);
      expect(image2.status === 200 && header(image2, "content-type") === "image/webp", `${imagePath}: ${image2.status} ${header(image2, "content-type")}`);
      expect(header(image2, "x-cache-status") === "HIT", `${imagePath}: X-Cache-Status ${header(image2, "x-cache-status")}`);
      lines.push(`${imagePath}: ${header(image1, "x-cache-status")} → ${header(image2, "x-cache-status")}`);
    }
    return lines.join("\n");
  });

  if (process.env.DC_SKIP_RESTART) {
    console.log("SKIP  the rolling restart (DEPLOY_CHECK_SKIP_RESTART is set)");
  } else await check("an update's rolling restart (A, then B) loses no request through nginx", async () => {
    const site = readFileSync(`${WORK}/nginx/scentara.conf`, "utf8");
    const failTimeoutSeconds = Number(/fail_timeout=(\d+)s/.exec(site)?.[1] ?? 10);
    let running = true;
    const results: string[] = [];
    const load = (async () => {
      for (let i = 0; running; i++) {
        const path = i % 2 ? "/healthz" : "/shop";
        try {
          const reply = await viaNginx(path, { from: OWNER });
          results.push(reply.status === 200 ? "ok" : `${path} ${reply.status}`);
        } catch (error) {
          results.push(`${path} ${(error as Error).message}`);
        }
      }
    })();
    const timings: string[] = [];
    try {
      for (const server of ["A", "B"] as const) {
        const started = Date.now();
        const pid = Number(readFileSync(`${WORK}/run/app-${APP[server]}.pid`, "utf8"));
        process.kill(pid, "SIGTERM");
        while (isAlive(pid)) await sleep(50);
        const stopped = Date.now();
        const child = spawn(START_APP, [String(APP[server])], { detached: true, stdio: "ignore" });
        child.unref();
        let healthy = false;
        for (const until = Date.now() + 60_000; !healthy && Date.now() < until; ) {
          healthy = (await plain(APP[server], "/healthz").catch(() => null))?.status === 200;
          if (!healthy) await sleep(200);
        }
        expect(healthy, `${server} did not come back: see ${WORK}/log/app-${APP[server]}.log`);
        timings.push(`${server} stopped in ${stopped - started} ms, healthy again ${Date.now() - stopped} ms later`);
        // nginx leaves a server that failed out for fail_timeout: the recipe waits that long before the next restart.
        await sleep((failTimeoutSeconds + 1) * 1000);
      }
    } finally {
      running = false;
      await load;
    }
    const failed = results.filter((r) => r !== "ok");
    expect(results.length > 20, `only ${results.length} requests were made`);
    expect(failed.length === 0, `${failed.length} of ${results.length} requests failed: ${[...new Set(failed)].slice(0, 5).join("; ")}`);
    return `${results.length} requests during the restarts, none failed\n${timings.join("\n")}`;
  });

  console.log(failures ? `\n${failures} check(s) failed` : "\nevery check passed");
  process.exitCode = failures ? 1 : 0;
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

await main();
