/**
 * A local fake of Ozow for tests (node:http on a random loopback port), following Ozow's documented contract
 * (hub.ozow.com: "Post from merchant website", "Process Ozow response", "Check transaction status using API"):
 * - POST / — the payment page: takes the shopper's posted form (application/x-www-form-urlencoded), checks its
 *   HashCheck (SHA-512 of the post variables in the documented order, empty ones left out, private key appended,
 *   lower-cased), records it and, when it verifies, opens a Pending transaction for its TransactionReference;
 * - GET /GetTransactionByReference?siteCode=…&transactionReference=…[&isTest=true] — requires the `ApiKey` header;
 *   answers the site's transactions for that reference (test ones only with isTest=true) as a JSON array;
 * - notifications: the fields Ozow posts to NotifyUrl with their Hash (the same scheme over the response variables).
 *
 * The hash is computed here independently of the adapter (its own field lists), so a wrong order or field in either
 * shows up as a refused form or notification.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { postWebhook } from "../factories/payments";

const REQUEST_ORDER = [
  "SiteCode",
  "CountryCode",
  "CurrencyCode",
  "Amount",
  "TransactionReference",
  "BankReference",
  "Optional1",
  "Optional2",
  "Optional3",
  "Optional4",
  "Optional5",
  "Customer",
  "CancelUrl",
  "ErrorUrl",
  "SuccessUrl",
  "NotifyUrl",
  "IsTest",
];
const NOTIFICATION_ORDER = [
  "SiteCode",
  "TransactionId",
  "TransactionReference",
  "Amount",
  "Status",
  "Optional1",
  "Optional2",
  "Optional3",
  "Optional4",
  "Optional5",
  "CurrencyCode",
  "IsTest",
  "StatusMessage",
];

function sha512Lower(parts: string[], key: string) {
  return createHash("sha512").update(`${parts.join("")}${key}`.toLowerCase(), "utf8").digest("hex");
}

export type OzowStatus = "Complete" | "Cancelled" | "Error" | "Abandoned" | "PendingInvestigation" | "Pending";

export interface FakeOzowTransaction {
  transactionId: string;
  transactionReference: string;
  /** As Ozow reports it: rand with two decimals. */
  amount: string;
  currencyCode: string;
  status: OzowStatus;
  isTest: boolean;
  siteCode: string;
  optional: string[];
}

export interface FakeOzowPayment {
  fields: Record<string, string>;
  hashValid: boolean;
  transactionId: string | null;
}

export interface FakeOzow {
  baseUrl: string;
  siteCode: string;
  privateKey: string;
  apiKey: string;
  /** Forms posted to the payment page, in order. */
  payments: FakeOzowPayment[];
  /** Status API calls, in order. */
  statusCalls: { query: Record<string, string>; apiKey: string | undefined; accept: string | undefined; status: number }[];
  transactions: Map<string, FakeOzowTransaction>;
  /** A transaction Ozow knows for a reference (as if the shopper had reached the payment page). */
  addTransaction(reference: string, options: { amount: string; status?: OzowStatus; isTest?: boolean }): FakeOzowTransaction;
  /** Change what Ozow reports for a transaction (the shopper paid, cancelled, …). */
  setStatus(transactionId: string, status: OzowStatus, amount?: string): void;
  /** Make the status API answer this status (and body) until cleared with null. */
  failStatusApi(status: number | null, body?: string): void;
  /** The fields Ozow posts to NotifyUrl for a transaction, with their Hash (overrides change what it claims). */
  notification(transactionId: string, overrides?: Partial<Record<string, string>> & { key?: string }): Record<string, string>;
  /** Builds a notification and POSTs it, form-encoded, through the shop's real /webhooks/payments/ozow action. */
  notify(transactionId: string, overrides?: Partial<Record<string, string>> & { key?: string }): Promise<Response>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeOzow(options: { siteCode?: string; privateKey?: string; apiKey?: string } = {}): Promise<FakeOzow> {
  const siteCode = options.siteCode ?? "TSTSTE0001";
  const privateKey = options.privateKey ?? randomUUID().replaceAll("-", "").toUpperCase();
  const apiKey = options.apiKey ?? randomUUID().replaceAll("-", "").toUpperCase();
  const transactions = new Map<string, FakeOzowTransaction>();
  const payments: FakeOzowPayment[] = [];
  const statusCalls: FakeOzow["statusCalls"] = [];
  let statusFailure: { status: number; body: string } | null = null;

  function open(reference: string, amount: string, status: OzowStatus, isTest: boolean, optional: string[] = []) {
    const tx: FakeOzowTransaction = {
      transactionId: randomUUID(),
      transactionReference: reference,
      amount,
      currencyCode: "ZAR",
      status,
      isTest,
      siteCode,
      optional,
    };
    transactions.set(tx.transactionId, tx);
    return tx;
  }

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake-ozow");
    const send = (status: number, body: string, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };

    if (req.method === "POST" && url.pathname === "/") {
      const fields = Object.fromEntries(new URLSearchParams(raw));
      const expected = sha512Lower(
        REQUEST_ORDER.map((n) => fields[n] ?? "").filter(Boolean),
        privateKey,
      );
      const hashValid = fields.HashCheck === expected && fields.SiteCode === siteCode;
      const valid = hashValid && fields.CountryCode === "ZA" && fields.CurrencyCode === "ZAR" && /^\d+\.\d{2}$/.test(fields.Amount ?? "") && (fields.BankReference ?? "").length <= 20 && /^[A-Za-z0-9 -]+$/.test(fields.BankReference ?? "");
      const tx = valid ? open(fields.TransactionReference, fields.Amount, "Pending", fields.IsTest === "true", [1, 2, 3, 4, 5].map((i) => fields[`Optional${i}`] ?? "")) : null;
      payments.push({ fields, hashValid, transactionId: tx?.transactionId ?? null });
      if (!valid) return send(400, "<h1>Ozow: invalid payment request (HashCheck)</h1>", "text/html");
      return send(200, `<h1>Ozow test payment page</h1><p>${tx!.transactionId}</p>`, "text/html");
    }

    if (req.method === "GET" && url.pathname.toLowerCase() === "/gettransactionbyreference") {
      const query = Object.fromEntries(url.searchParams);
      const given = req.headers.apikey as string | undefined;
      const record = (status: number) => statusCalls.push({ query, apiKey: given, accept: req.headers.accept, status });
      if (given !== apiKey) {
        record(401);
        return send(401, JSON.stringify({ message: "Authorization has been denied for this request." }));
      }
      if (statusFailure) {
        record(statusFailure.status);
        return send(statusFailure.status, statusFailure.body);
      }
      const isTest = (url.searchParams.get("isTest") ?? "false").toLowerCase() === "true";
      const rows = [...transactions.values()].filter(
        (t) => t.siteCode === url.searchParams.get("siteCode") && t.transactionReference === url.searchParams.get("transactionReference") && t.isTest === isTest,
      );
      record(200);
      return send(
        200,
        JSON.stringify(
          rows.map((t) => ({
            transactionId: t.transactionId,
            merchantCode: "FAKEMERCHANT",
            siteCode: t.siteCode,
            transactionReference: t.transactionReference,
            currencyCode: t.currencyCode,
            amount: Number(t.amount),
            status: t.status,
            statusMessage: t.status === "Complete" ? "Test transaction completed" : null,
            createdDate: new Date().toISOString(),
            paymentDate: t.status === "Complete" ? new Date().toISOString() : null,
          })),
        ),
      );
    }
    return send(404, JSON.stringify({ message: "Not found" }));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function notification(transactionId: string, overrides: Partial<Record<string, string>> & { key?: string } = {}) {
    const t = transactions.get(transactionId);
    if (!t) throw new Error(`fake Ozow has no transaction ${transactionId}`);
    const { key, ...claims } = overrides;
    const fields: Record<string, string> = {
      SiteCode: t.siteCode,
      TransactionId: t.transactionId,
      TransactionReference: t.transactionReference,
      Amount: t.amount,
      Status: t.status,
      Optional1: t.optional[0] ?? "",
      Optional2: t.optional[1] ?? "",
      Optional3: t.optional[2] ?? "",
      Optional4: t.optional[3] ?? "",
      Optional5: t.optional[4] ?? "",
      CurrencyCode: t.currencyCode,
      IsTest: t.isTest ? "true" : "false",
      StatusMessage: t.status === "Complete" ? "Test transaction completed" : "",
      ...(claims as Record<string, string>),
    };
    fields.Hash = sha512Lower(
      NOTIFICATION_ORDER.map((n) => fields[n] ?? ""),
      key ?? privateKey,
    );
    return fields;
  }

  return {
    baseUrl,
    siteCode,
    privateKey,
    apiKey,
    payments,
    statusCalls,
    transactions,
    addTransaction(reference, o) {
      return open(reference, o.amount, o.status ?? "Pending", o.isTest ?? true);
    },
    setStatus(transactionId, status, amount) {
      const t = transactions.get(transactionId);
      if (!t) throw new Error(`fake Ozow has no transaction ${transactionId}`);
      t.status = status;
      if (amount !== undefined) t.amount = amount;
    },
    failStatusApi(status, body = JSON.stringify({ message: "error" })) {
      statusFailure = status === null ? null : { status, body };
    },
    notification,
    async notify(transactionId, overrides) {
      const fields = notification(transactionId, overrides);
      return postWebhook("ozow", { body: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
