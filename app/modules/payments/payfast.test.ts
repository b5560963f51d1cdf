import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  centsToPayfastAmount,
  createPayfastProvider,
  itnParamString,
  itnSignature,
  payfastAmountToCents,
  payfastCellNumber,
  payfastSignature,
  phpUrlencode,
  splitName,
} from "./payfast.server";
import type { CreateCheckoutInput } from "./provider";

/** PHP's urlencode() written the long way, byte by byte (php-src ext/standard/url.c): the reference for phpUrlencode. */
function referenceUrlencode(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.-]/.test(c)) out += c;
    else if (byte === 0x20) out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const md5 = (s: string) => createHash("md5").update(s, "utf8").digest("hex");

describe("phpUrlencode", () => {
  it.each([
    [" ", "+"],
    ["~", "%7E"],
    ["!", "%21"],
    ["*", "%2A"],
    ["'", "%27"],
    ["(", "%28"],
    [")", "%29"],
    ["&", "%26"],
    ["=", "%3D"],
    ["+", "%2B"],
    ["%", "%25"],
    ["/", "%2F"],
    [":", "%3A"],
    ["?", "%3F"],
    ["é", "%C3%A9"],
    ["😀", "%F0%9F%98%80"],
    ["-_.", "-_."],
    ["Az09", "Az09"],
  ])("%j → %j", (input, encoded) => {
    expect(phpUrlencode(input)).toBe(encoded);
  });

  it("matches PHP's byte-by-byte rules for every ASCII character and a sample of others", () => {
    const samples = [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), "ñ", "€", "£", "ß", "中", "👩🏽‍🔬", "\u00a0", "O'Brien & Sons (Pty) Ltd!"];
    for (const s of samples) expect(phpUrlencode(s), JSON.stringify(s)).toBe(referenceUrlencode(s));
  });
});

describe("payfastSignature", () => {
  it("reproduces PayFast's own test vector (payfast-php-sdk tests/unit/AuthTest.php, testGenerateSignatureOrdering)", () => {
    // Source: https://github.com/Payfast/payfast-php-sdk/blob/master/tests/unit/AuthTest.php — the data below, put
    // into the documented field order by Auth::generateSignature, with passphrase 'payfastsandbox', signs as
    // 3441682c5d8a65486f5b7cc8ce41d146. (custom_str1/2 are base64 of 'Some Test String' / 'Another Test String'
    // without padding; cycles=0 is not empty and is signed.)
    const b64 = (s: string) => Buffer.from(s).toString("base64").replace(/=+$/, "");
    const fields: Array<[string, string]> = [
      ["merchant_id", "10028084"],
      ["merchant_key", "4hjoenwbwnuso"],
      ["return_url", "https://test.com/billing/success"],
      ["cancel_url", "https://test.com/billing/cancel"],
      ["notify_url", "https://test.com/payfast/webhook"],
      ["name_first", "Test"],
      ["name_last", "Test"],
      ["email_address", "test@test.com"],
      ["m_payment_id", "5"],
      ["amount", "5.00"],
      ["item_name", "Test"],
      ["custom_int1", "1"],
      ["custom_int2", "1"],
      ["custom_str1", b64("Some Test String")],
      ["custom_str2", b64("Another Test String")],
      ["email_confirmation", "1"],
      ["confirmation_address", "test@test.test"],
      ["subscription_type", "1"],
      ["billing_date", "2023-01-01"],
      ["recurring_amount", "5"],
      ["frequency", "3"],
      ["cycles", "0"],
    ];
    expect(payfastSignature(fields, "payfastsandbox")).toBe("3441682c5d8a65486f5b7cc8ce41d146");
    // Order matters: alphabetical order (a common mistake) gives another signature.
    const sorted = [...fields].sort(([a], [b]) => a.localeCompare(b));
    expect(payfastSignature(sorted, "payfastsandbox")).not.toBe("3441682c5d8a65486f5b7cc8ce41d146");
  });

  const form: Array<[string, string]> = [
    ["merchant_id", "10000100"],
    ["merchant_key", "46f0cd694581a"],
    ["return_url", "https://shop.example/payment-status?orderId=abc&status=success"],
    ["cancel_url", "https://shop.example/payment-status?orderId=abc&status=cancelled"],
    ["notify_url", "https://shop.example/webhooks/payments/payfast"],
    ["name_first", "Thandi"],
    ["name_last", "Nkosi"],
    ["email_address", "thandi+perfume@example.co.za"],
    ["m_payment_id", "abc"],
    ["amount", "810.00"],
    ["item_name", "Scentara order abc (Oud Noir ~ 100ml)!"],
  ];

  it("is MD5 of key=urlencode(trimmed value) pairs joined by '&', with &passphrase= appended", () => {
    const expected = md5(`${form.map(([k, v]) => `${k}=${referenceUrlencode(v)}`).join("&")}&passphrase=jt7NOE43FZPn`);
    expect(payfastSignature(form, "jt7NOE43FZPn")).toBe(expected);
    expect(payfastSignature(form)).toBe(md5(form.map(([k, v]) => `${k}=${referenceUrlencode(v)}`).join("&")));
  });

  it("leaves out empty fields, trims values, ignores a signature field, and an empty passphrase is no passphrase", () => {
    const withBlanks: Array<[string, string]> = [...form.slice(0, 7), ["email_address", ""], ["cell_number", "   "], ...form.slice(8), ["signature", "x"]];
    const withoutThem = [...form.slice(0, 7), ...form.slice(8)];
    expect(payfastSignature(withBlanks, "pp")).toBe(payfastSignature(withoutThem, "pp"));
    const padded = form.map(([k, v]) => [k, ` ${v}\t`] as [string, string]);
    expect(payfastSignature(padded, " pp ")).toBe(payfastSignature(form, "pp"));
    expect(payfastSignature(form, "")).toBe(payfastSignature(form));
  });

  it("changes when any single field, a field's position or the passphrase changes", () => {
    const base = payfastSignature(form, "jt7NOE43FZPn");
    const seen = new Set([base]);
    for (let i = 0; i < form.length; i++) {
      for (const change of [(v: string) => `${v}x`, (v: string) => v.slice(0, -1) || "y", (v: string) => v.replace(/.$/, (c) => (c === " " ? "+" : " "))]) {
        const changed = form.map(([k, v], j) => [k, j === i ? change(v) : v] as [string, string]);
        const sig = payfastSignature(changed, "jt7NOE43FZPn");
        expect(sig, `${form[i]![0]} changed`).not.toBe(base);
        seen.add(sig);
      }
    }
    const swapped = [...form];
    [swapped[5], swapped[6]] = [swapped[6]!, swapped[5]!];
    expect(payfastSignature(swapped, "jt7NOE43FZPn")).not.toBe(base);
    expect(payfastSignature(form, "jt7NOE43FZPm")).not.toBe(base);
    expect(payfastSignature(form)).not.toBe(base);
    // A space and a '+' in a value must not sign alike (PHP's urlencode tells them apart).
    const space = form.map(([k, v]) => [k, k === "item_name" ? "a b" : v] as [string, string]);
    const plus = form.map(([k, v]) => [k, k === "item_name" ? "a+b" : v] as [string, string]);
    expect(payfastSignature(space)).not.toBe(payfastSignature(plus));
  });
});

describe("the ITN's parameter string and signature", () => {
  const itn: Array<[string, string]> = [
    ["m_payment_id", "abc"],
    ["pf_payment_id", "1089250"],
    ["payment_status", "COMPLETE"],
    ["item_name", "Scentara order abc"],
    ["item_description", ""],
    ["amount_gross", "810.00"],
    ["amount_fee", "-18.63"],
    ["amount_net", "791.37"],
    ["custom_str1", ""],
    ["name_first", "Thandi"],
    ["email_address", "thandi@example.co.za"],
    ["merchant_id", "10000100"],
    ["signature", "ignored"],
  ];

  it("keeps every field but the signature in the order received, empty ones included", () => {
    expect(itnParamString(itn)).toBe(
      "m_payment_id=abc&pf_payment_id=1089250&payment_status=COMPLETE&item_name=Scentara+order+abc&item_description=&amount_gross=810.00&amount_fee=-18.63&amount_net=791.37&custom_str1=&name_first=Thandi&email_address=thandi%40example.co.za&merchant_id=10000100",
    );
    expect(itnSignature(itn, "jt7NOE43FZPn")).toBe(md5(`${itnParamString(itn)}&passphrase=jt7NOE43FZPn`));
    expect(itnSignature(itn)).toBe(md5(itnParamString(itn)));
  });

  it("differs when a field is reordered, emptied or changed", () => {
    const base = itnSignature(itn, "pp");
    const reordered = [itn[1]!, itn[0]!, ...itn.slice(2)];
    expect(itnSignature(reordered, "pp")).not.toBe(base);
    const dropped = itn.filter(([k]) => k !== "item_description");
    expect(itnSignature(dropped, "pp")).not.toBe(base);
    const raised = itn.map(([k, v]) => [k, k === "amount_gross" ? "810.01" : v] as [string, string]);
    expect(itnSignature(raised, "pp")).not.toBe(base);
  });
});

describe("amounts", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [29, "0.29"],
    [100, "1.00"],
    [12345, "123.45"],
    [81000, "810.00"],
    [123456789, "1234567.89"],
  ])("%i cents ↔ %s", (cents, text) => {
    expect(centsToPayfastAmount(cents)).toBe(text);
    expect(payfastAmountToCents(text)).toBe(cents);
  });

  it("round-trips every amount up to R100 and a spread of larger ones, with no floating-point drift", () => {
    for (let cents = 0; cents <= 10_000; cents++) expect(payfastAmountToCents(centsToPayfastAmount(cents))).toBe(cents);
    for (const cents of [999_999_99, 1_000_000_01, 9_999_999_999_999_99]) expect(payfastAmountToCents(centsToPayfastAmount(cents))).toBe(cents);
    // The float way (Math.round(parseFloat('1.005') * 100) and friends) is exactly what this avoids.
    expect(payfastAmountToCents("0.29")).toBe(29);
    expect(payfastAmountToCents("1.10")).toBe(110);
  });

  it("reads '123' and '123.4' too, and refuses anything that is not a plain amount", () => {
    expect(payfastAmountToCents("123")).toBe(12300);
    expect(payfastAmountToCents("123.4")).toBe(12340);
    for (const bad of ["", ".50", "12.", "12.345", "-1.00", "+1.00", "1,00", "1e3", " 1.00", "1.00 ", "0x10", "1.00.0", "１２.００", "NaN", "Infinity", "99999999999999.00"]) {
      expect(payfastAmountToCents(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it("refuses to format what is not whole cents", () => {
    expect(() => centsToPayfastAmount(1.5)).toThrow();
    expect(() => centsToPayfastAmount(-100)).toThrow();
    expect(() => centsToPayfastAmount(Number.NaN)).toThrow();
  });
});

describe("buyer details", () => {
  it("turns our +27 mobile number into PayFast's 10-digit cell_number, and leaves out anything else", () => {
    expect(payfastCellNumber("+27821234567")).toBe("0821234567");
    expect(payfastCellNumber("+27 82 123 4567")).toBe("0821234567");
    expect(payfastCellNumber("0721234567")).toBe("0721234567");
    expect(payfastCellNumber("+27611234567")).toBe("0611234567");
    expect(payfastCellNumber("+27121234567")).toBe(""); // a Pretoria landline
    expect(payfastCellNumber("+442071234567")).toBe("");
    expect(payfastCellNumber("+2782123456")).toBe("");
  });

  it("splits a name at its last word", () => {
    expect(splitName("Thandi Nkosi")).toEqual(["Thandi", "Nkosi"]);
    expect(splitName("  Mary   Jane  Smith ")).toEqual(["Mary Jane", "Smith"]);
    expect(splitName("Cher")).toEqual(["Cher", ""]);
    expect(splitName(`${"A".repeat(150)} B`)[0]).toHaveLength(100);
  });
});

describe("the PayFast provider's checkout", () => {
  const provider = createPayfastProvider({ baseUrl: "https://sandbox.payfast.co.za/", merchantId: "10000100", merchantKey: "46f0cd694581a", passphrase: "jt7NOE43FZPn" });
  const input: CreateCheckoutInput = {
    orderId: "0b7e9c1e-4f2a-4d7e-9a51-3c2f1e0d9b8a",
    amountCents: 81050,
    currency: "ZAR",
    successUrl: "https://shop.example/payment-status?orderId=0b7e9c1e-4f2a-4d7e-9a51-3c2f1e0d9b8a&status=success",
    cancelUrl: "https://shop.example/payment-status?orderId=0b7e9c1e-4f2a-4d7e-9a51-3c2f1e0d9b8a&status=cancelled",
    failureUrl: "https://shop.example/payment-status?orderId=0b7e9c1e-4f2a-4d7e-9a51-3c2f1e0d9b8a&status=cancelled",
    notifyUrl: "https://shop.example/webhooks/payments/payfast",
    description: "Scentara order 0b7e9c1e",
    customer: { email: "thandi@example.co.za", name: "Thandi Nkosi", telephone: "+27821234567" },
    idempotencyKey: "0b7e9c1e-4f2a-4d7e-9a51-3c2f1e0d9b8a",
  };

  it("createCheckout sends the shopper to the shop's own form page, without calling PayFast", async () => {
    expect(await provider.createCheckout(input)).toEqual({ checkoutId: input.orderId, redirectUrl: `/pay/form/${input.orderId}` });
  });

  it("the form posts to /eng/process with the documented fields in the documented order, signed last", () => {
    const form = provider.checkoutForm!(input);
    expect(form.action).toBe("https://sandbox.payfast.co.za/eng/process");
    const fields = form.fields;
    expect(fields.slice(0, -1)).toEqual([
      ["merchant_id", "10000100"],
      ["merchant_key", "46f0cd694581a"],
      ["return_url", input.successUrl],
      ["cancel_url", input.cancelUrl],
      ["notify_url", input.notifyUrl],
      ["name_first", "Thandi"],
      ["name_last", "Nkosi"],
      ["email_address", "thandi@example.co.za"],
      ["cell_number", "0821234567"],
      ["m_payment_id", input.orderId],
      ["amount", "810.50"],
      ["item_name", "Scentara order 0b7e9c1e"],
    ]);
    const pairs = fields.slice(0, -1).map(([k, v]) => `${k}=${referenceUrlencode(v)}`);
    expect(fields.at(-1)).toEqual(["signature", md5(`${pairs.join("&")}&passphrase=jt7NOE43FZPn`)]);
    // The same input gives the same form (the /pay/form page can be reloaded).
    expect(provider.checkoutForm!(input)).toEqual(form);
  });

  it("leaves out what is empty or unusable, and keeps item_name within 100 characters", () => {
    const form = provider.checkoutForm!({
      ...input,
      description: `${"Scentara order ".repeat(10)}😀`,
      customer: { email: `${"x".repeat(95)}@example.co.za`, name: "Cher", telephone: "+27121234567" },
    });
    const names = form.fields.map(([k]) => k);
    expect(names).not.toContain("name_last");
    expect(names).not.toContain("email_address");
    expect(names).not.toContain("cell_number");
    const itemName = form.fields.find(([k]) => k === "item_name")![1];
    expect(Array.from(itemName).length).toBeLessThanOrEqual(100);
    expect(form.fields.at(-1)![1]).toBe(payfastSignature(form.fields.slice(0, -1), "jt7NOE43FZPn"));
  });
});
