/**
 * A fixed corpus of hostile values: every one is sent to every action field and every query parameter by
 * tests/fuzz/hostile-input.ts. Fixed (not random) so a failure names the value and reproduces on every run.
 */
export const HOSTILE_VALUES: readonly string[] = [
  // sizes
  "",
  " ",
  "a".repeat(100_000),
  "9".repeat(400),
  // unicode
  "😀".repeat(2_000),
  "\u202etxt.exe",
  "Zoë Ndlovu-Müller",
  "\uD800", // a lone surrogate (FormData turns it into U+FFFD)
  "\uFEFF\u200B",
  // NUL and control characters
  "\u0000",
  "a\u0000b",
  "%00",
  "\r\nSet-Cookie: hacked=1",
  "\t\n\r\u0007",
  // SQL metacharacters
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "%' AND 1=1 --",
  "\\",
  // path traversal and URLs
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "/.//evil.example/x",
  "//evil.example",
  "javascript:alert(1)",
  // markup
  "<script>alert(1)</script>",
  // numbers
  "-1",
  "0",
  "-0",
  "1.5",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "0x1F",
  "9007199254740993",
  // JSON and objects
  "[]",
  "{}",
  '{"$gt":""}',
  '[{"productId":"x","quantity":-5}]',
  '[{"productId":"x","quantity":1e9}]',
  "null",
  "true",
  "__proto__",
  "constructor",
];

/** A field sent twice (an array in most form libraries): the shop must read one value or refuse, never crash. */
export const REPEATED_FIELD_VALUES: readonly [string, string] = ["first", "second"];

/** Bodies that are not forms: each action must answer 400 or 415. */
export const NON_FORM_BODIES: ReadonlyArray<{ label: string; contentType: string | null; body: string }> = [
  { label: "JSON", contentType: "application/json", body: '{"email":"a@b.co","password":"x"}' },
  { label: "text/plain", contentType: "text/plain", body: "email=a@b.co&password=x" },
  { label: "XML", contentType: "application/xml", body: "<login><email>a@b.co</email></login>" },
  { label: "no content type", contentType: null, body: "email=a@b.co" },
  { label: "broken multipart", contentType: "multipart/form-data; boundary=xyz", body: '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nbroken' },
  { label: "multipart without boundary", contentType: "multipart/form-data", body: "email=a@b.co" },
];
