import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  OZOW_NOTIFICATION_FIELDS,
  OZOW_REQUEST_FIELDS,
  centsToRand,
  createOzowProvider,
  ozowBankReference,
  ozowEventType,
  ozowHashMatches,
  ozowNotificationHash,
  ozowRequestHash,
  randToCents,
  type OzowRequestField,
} from "./ozow.server";
import type { CreateCheckoutInput } from "./provider";
import { WebhookVerificationError } from "./standard-webhooks.server";

/**
 * Ozow's published HashCheck example (hub.ozow.com/docs/step-post-from-merchant-website, "Hash check example"): site
 * code TSTSTE0001 and Ozow's public test private key. The page's intermediate strings repeat cancel.aspx where the
 * field list says ErrorUrl = error.aspx; its published hash is the one for the field list (error.aspx), which is what
 * this reproduces.
 */
const OZOW_EXAMPLE = {
  privateKey: "215114531AFF7134A94C88CEEA48E",
  fields: {
    SiteCode: "TSTSTE0001",
    CountryCode: "ZA",
    CurrencyCode: "ZAR",
    Amount: "25.00",
    TransactionReference: "123",
    BankReference: "ABC123",
    CancelUrl: "http://demo.ozow.com/cancel.aspx",
    ErrorUrl: "http://demo.ozow.com/error.aspx",
    SuccessUrl: "http://demo.ozow.com/success.aspx",
    NotifyUrl: "http://demo.ozow.com/notify.aspx",
    IsTest: "false",
  } satisfies Partial<Record<OzowRequestField, string>>,
  hash: "eedcba106cd8fef3ba6cec5ec80de7d7d7fc90343028bf95b908718c671d0fe885ca08b206d788de009d237a93c18e66edf6ede3f5ca7057e23474106465dcc6",
};

describe("the request HashCheck", () => {
  it("reproduces Ozow's published example", () => {
    expect(ozowRequestHash(OZOW_EXAMPLE.fields, OZOW_EXAMPLE.privateKey)).toBe(OZOW_EXAMPLE.hash);
  });

  const full: Record<OzowRequestField, string> = {
    SiteCode: "TSTSTE0001",
    CountryCode: "ZA",
    CurrencyCode: "ZAR",
    Amount: "419.99",
    TransactionReference: "3f2a9c1e-0000-4000-8000-000000000001",
    BankReference: "SCENTARA 3f2a9c1e",
    Optional1: "o1",
    Optional2: "o2",
    Optional3: "o3",
    Optional4: "o4",
    Optional5: "o5",
    Customer: "Thandi Nkosi",
    CancelUrl: "https://shop.example/payment-status?status=cancelled",
    ErrorUrl: "https://shop.example/payment-status?status=error",
    SuccessUrl: "https://shop.example/payment-status?status=success",
    NotifyUrl: "https://shop.example/webhooks/payments/ozow",
    IsTest: "true",
  };
  const key = "215114531AFF7134A94C88CEEA48E";

  it("is SHA-512 of the values in the documented order, key appended, lower-cased", () => {
    // The post variables table's order (hub.ozow.com "Step 1: Post from merchant website"), written out again here.
    const documented = "SiteCode CountryCode CurrencyCode Amount TransactionReference BankReference Optional1 Optional2 Optional3 Optional4 Optional5 Customer CancelUrl ErrorUrl SuccessUrl NotifyUrl IsTest".split(" ");
    expect(OZOW_REQUEST_FIELDS).toEqual(documented);
    const expected = createHash("sha512")
      .update(documented.map((f) => full[f as OzowRequestField]).join("").concat(key).toLowerCase())
      .digest("hex");
    expect(ozowRequestHash(full, key)).toBe(expected);
    expect(ozowRequestHash(full, key)).toMatch(/^[0-9a-f]{128}$/);
  });

  it("changes when any single field, or the key, changes", () => {
    const base = ozowRequestHash(full, key);
    const seen = new Set([base]);
    for (const name of OZOW_REQUEST_FIELDS) {
      for (const changed of [`${full[name]}x`, full[name].slice(0, -1), `9${full[name]}`]) {
        const hash = ozowRequestHash({ ...full, [name]: changed }, key);
        expect(hash, `${name} → ${changed}`).not.toBe(base);
        seen.add(hash);
      }
    }
    expect(ozowRequestHash(full, `${key}0`)).not.toBe(base);
    expect(ozowRequestHash(full, key.slice(1))).not.toBe(base);
    expect(seen.size).toBe(1 + OZOW_REQUEST_FIELDS.length * 3);
  });

  it("follows the documented order, not the order of the object, and leaves empty fields out", () => {
    const reversed = Object.fromEntries([...Object.entries(full)].reverse());
    expect(ozowRequestHash(reversed, key)).toBe(ozowRequestHash(full, key));
    const { Optional1: _1, Optional2: _2, Optional3: _3, Optional4: _4, Optional5: _5, Customer: _c, ...without } = full;
    expect(ozowRequestHash({ ...without, Optional1: "", Customer: null }, key)).toBe(ozowRequestHash(without, key));
    // Swapping two values moves them in the concatenation.
    expect(ozowRequestHash({ ...full, CancelUrl: full.SuccessUrl, SuccessUrl: full.CancelUrl }, key)).not.toBe(ozowRequestHash(full, key));
  });

  it("is case-blind, as Ozow's lower-casing makes it", () => {
    expect(ozowRequestHash({ ...full, Customer: "THANDI NKOSI" }, key.toLowerCase())).toBe(ozowRequestHash(full, key));
  });
});

describe("the notification hash", () => {
  const notification = {
    SiteCode: "TSTSTE0001",
    TransactionId: "0b9b7ddb-3f65-4b53-a2a5-7f0e6c1a9d11",
    TransactionReference: "3f2a9c1e-0000-4000-8000-000000000001",
    Amount: "419.99",
    Status: "Complete",
    Optional1: "",
    Optional2: "",
    Optional3: "",
    Optional4: "",
    Optional5: "",
    CurrencyCode: "ZAR",
    IsTest: "true",
    StatusMessage: "Test transaction completed",
  };

  it("covers SiteCode, TransactionId, TransactionReference, Amount, Status, Optional1–5, CurrencyCode, IsTest, StatusMessage in that order", () => {
    expect(OZOW_NOTIFICATION_FIELDS).toEqual([
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
    ]);
    const expected = createHash("sha512")
      .update(
        "TSTSTE00010b9b7ddb-3f65-4b53-a2a5-7f0e6c1a9d113f2a9c1e-0000-4000-8000-000000000001419.99CompleteZARtrueTest transaction completedSECRET".toLowerCase(),
      )
      .digest("hex");
    expect(ozowNotificationHash(notification, "SECRET")).toBe(expected);
  });

  it("changes when the status, amount, reference or key changes", () => {
    const base = ozowNotificationHash(notification, "SECRET");
    expect(ozowNotificationHash({ ...notification, Status: "Cancelled" }, "SECRET")).not.toBe(base);
    expect(ozowNotificationHash({ ...notification, Amount: "419.98" }, "SECRET")).not.toBe(base);
    expect(ozowNotificationHash({ ...notification, TransactionReference: "other" }, "SECRET")).not.toBe(base);
    expect(ozowNotificationHash(notification, "SECRET2")).not.toBe(base);
  });

  it("compares in constant time, ignoring case and leading zeros, and refuses anything else", () => {
    const hash = ozowNotificationHash(notification, "SECRET");
    expect(ozowHashMatches(hash, hash)).toBe(true);
    expect(ozowHashMatches(hash.toUpperCase(), hash)).toBe(true);
    expect(ozowHashMatches(` ${hash} `, hash)).toBe(true);
    const zeros = `00${hash.slice(2)}`;
    expect(ozowHashMatches(zeros.replace(/^0+/, ""), zeros)).toBe(true);
    expect(ozowHashMatches(`${hash.slice(0, -1)}${hash.endsWith("0") ? "1" : "0"}`, hash)).toBe(false);
    expect(ozowHashMatches(hash.slice(1), hash.startsWith("0") ? `1${hash.slice(1)}` : hash)).toBe(false);
    expect(ozowHashMatches("", "")).toBe(false);
    expect(ozowHashMatches("0", "00")).toBe(false);
  });
});

describe("amounts", () => {
  it("cents → rand text with two decimals, without floating point", () => {
    expect(centsToRand(0)).toBe("0.00");
    expect(centsToRand(5)).toBe("0.05");
    expect(centsToRand(100)).toBe("1.00");
    expect(centsToRand(12345)).toBe("123.45");
    expect(centsToRand(41999)).toBe("419.99");
    expect(centsToRand(9_999_999_99)).toBe("9999999.99");
    expect(() => centsToRand(1.5)).toThrow(RangeError);
    expect(() => centsToRand(-1)).toThrow(RangeError);
  });

  it("rand text → cents exactly; anything that isn't an amount is refused", () => {
    expect(randToCents("123.45")).toBe(12345);
    expect(randToCents("123.4")).toBe(12340);
    expect(randToCents("123")).toBe(12300);
    expect(randToCents("0.10")).toBe(10);
    expect(randToCents("419.9900")).toBe(41999);
    expect(randToCents(" 1.00 ")).toBe(100);
    for (const bad of ["", "-1.00", "1.001", "1e3", "1,00", "R1.00", "1.", ".5", "0x10", "NaN", "Infinity", "1 000.00"]) {
      expect(randToCents(bad), bad).toBeNull();
    }
  });

  it("round-trips every amount (a sweep with the awkward floating-point ones)", () => {
    for (const cents of [1, 7, 10, 29, 57, 99, 110, 115, 1005, 4_294_967_295, ...Array.from({ length: 2000 }, (_, i) => i * 37 + (i % 100))]) {
      expect(randToCents(centsToRand(cents))).toBe(cents);
    }
  });
});

describe("the bank reference", () => {
  const orderId = "3f2a9c1e-1b2c-4d5e-8f90-123456789abc";

  it("is the shop's name and the short order id, at most 20 characters of letters, digits, spaces and dashes", () => {
    expect(ozowBankReference("Scentara", orderId)).toBe("SCENTARA 3f2a9c1e");
    for (const shop of ["Scentara", "Zoë's Scents & Co. (Pty) Ltd", "A very long perfume shop name indeed", "", "!!!", "  spaced   out  "]) {
      const reference = ozowBankReference(shop, orderId);
      expect(reference.length, shop).toBeLessThanOrEqual(20);
      expect(reference, shop).toMatch(/^[A-Za-z0-9 -]+$/);
      expect(reference.endsWith("3f2a9c1e"), shop).toBe(true);
      expect(reference).toBe(reference.trim());
    }
    expect(ozowBankReference("Zoë's Scents & Co.", orderId)).toBe("ZOS SCENTS 3f2a9c1e");
    expect(ozowBankReference("", orderId)).toBe("3f2a9c1e");
  });
});

describe("the provider without a network", () => {
  const provider = createOzowProvider({
    siteCode: "TSTSTE0001",
    privateKey: "PRIVATE",
    apiKey: "API",
    isTest: true,
    shopName: "Scentara",
    payUrl: "https://pay.ozow.test/",
    apiBase: "http://127.0.0.1:9",
    timeoutMs: 1000,
  });
  const input: CreateCheckoutInput = {
    orderId: "3f2a9c1e-1b2c-4d5e-8f90-123456789abc",
    amountCents: 41999,
    currency: "ZAR",
    successUrl: "http://localhost:3000/payment-status?orderId=x&status=success",
    cancelUrl: "http://localhost:3000/payment-status?orderId=x&status=cancelled",
    failureUrl: "http://localhost:3000/payment-status?orderId=x&status=cancelled",
    notifyUrl: "http://localhost:3000/webhooks/payments/ozow",
    description: "Scentara order 3f2a9c1e",
    customer: { email: "buyer@example.test", name: "Thandi Nkosi", telephone: "+27821234567" },
    idempotencyKey: "3f2a9c1e-1b2c-4d5e-8f90-123456789abc",
  };

  it("createCheckout sends the shopper to the shop's own form page; nothing is called", async () => {
    expect(await provider.createCheckout(input)).toEqual({ checkoutId: input.orderId, redirectUrl: `/pay/form/${input.orderId}` });
  });

  it("checkoutForm posts the documented fields, in order, to Ozow's root with a HashCheck over them", () => {
    const form = provider.checkoutForm!(input);
    expect(form.action).toBe("https://pay.ozow.test/");
    expect(form.fields).toEqual([
      ["SiteCode", "TSTSTE0001"],
      ["CountryCode", "ZA"],
      ["CurrencyCode", "ZAR"],
      ["Amount", "419.99"],
      ["TransactionReference", input.orderId],
      ["BankReference", "SCENTARA 3f2a9c1e"],
      ["Customer", "Thandi Nkosi"],
      ["CancelUrl", input.cancelUrl],
      ["ErrorUrl", input.failureUrl],
      ["SuccessUrl", input.successUrl],
      ["NotifyUrl", input.notifyUrl],
      ["IsTest", "true"],
      ["HashCheck", expect.stringMatching(/^[0-9a-f]{128}$/)],
    ]);
    const values = form.fields.slice(0, -1).map(([, v]) => v);
    const expected = createHash("sha512").update(`${values.join("")}PRIVATE`.toLowerCase()).digest("hex");
    expect(form.fields.at(-1)).toEqual(["HashCheck", expected]);
    expect(provider.checkoutForm!(input)).toEqual(form);
  });

  function signed(fields: Record<string, string>, key = "PRIVATE") {
    return new URLSearchParams({ ...fields, Hash: ozowNotificationHash(fields, key) }).toString();
  }
  const form = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  const pending = {
    SiteCode: "TSTSTE0001",
    TransactionId: "0b9b7ddb-3f65-4b53-a2a5-7f0e6c1a9d11",
    TransactionReference: input.orderId,
    Amount: "419.99",
    Status: "PendingInvestigation",
    CurrencyCode: "ZAR",
    IsTest: "true",
  };
  const reasonOf = async (body: string, headers = form) => {
    const error = await Promise.resolve()
      .then(() => provider.verifyWebhook(body, headers))
      .catch((e) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  };

  it("a signed notification that changes nothing (PendingInvestigation) needs no status call", async () => {
    expect(await provider.verifyWebhook(signed(pending), form)).toEqual({
      id: `${pending.TransactionId}:PendingInvestigation`,
      type: "other",
      providerType: "PendingInvestigation",
      checkoutId: input.orderId,
      amountCents: 41999,
      currency: "ZAR",
    });
    // JSON works the same.
    const json = JSON.stringify({ ...pending, Hash: ozowNotificationHash(pending, "PRIVATE") });
    expect((await provider.verifyWebhook(json, new Headers({ "content-type": "application/json" }))).type).toBe("other");
  });

  it("refuses forged, malformed, other-site and other-mode notifications; an unreachable status API is a 503", async () => {
    expect(await reasonOf(signed(pending, "NOT-OURS"))).toBe("bad_signature");
    expect(await reasonOf(signed(pending).replace("Amount=419.99", "Amount=1.00"))).toBe("bad_signature");
    expect(await reasonOf("")).toBe("malformed_body");
    expect(await reasonOf("{not json", new Headers({ "content-type": "application/json" }))).toBe("malformed_body");
    expect(await reasonOf(signed({ ...pending, Amount: "4,19" }))).toBe("malformed_body");
    expect(await reasonOf(signed({ ...pending, SiteCode: "OTHER0001" }))).toBe("not_confirmed");
    expect(await reasonOf(signed({ ...pending, IsTest: "false" }))).toBe("not_confirmed");
    const error = await Promise.resolve(provider.verifyWebhook(signed({ ...pending, Status: "Complete" }), form)).catch((e) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect([error.reason, error.status]).toEqual(["provider_unavailable", 503]);
  });

  it("maps Ozow's statuses", () => {
    expect(["Complete", "Cancelled", "Abandoned", "Error", "PendingInvestigation", "Pending", "Whatever"].map(ozowEventType)).toEqual([
      "payment.succeeded",
      "payment.cancelled",
      "payment.cancelled",
      "payment.failed",
      "other",
      "other",
      "other",
    ]);
  });
});
