import { describe, expect, it } from "vitest";
import { canonicalQuery, EMPTY_PAYLOAD_HASH, sha256Hex, signV4, uriEncode } from "./sigv4";

/**
 * AWS's published vectors, nothing computed by this code:
 * - the Signature Version 4 test suite (AWS General Reference, "Signature Version 4 test suite"; files get-vanilla,
 *   get-vanilla-query-order-key-case, get-utf8, post-vanilla): AKIDEXAMPLE, us-east-1, service "service", 2015-08-30;
 * - the Amazon S3 API Reference's worked examples ("Signature Calculations for the Authorization Header: Transferring
 *   Payload in a Single Chunk"): AKIAIOSFODNN7EXAMPLE, examplebucket, us-east-1, s3, 2013-05-24.
 */
const suite = {
  credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
  scope: { region: "us-east-1", service: "service", now: new Date("2015-08-30T12:36:00Z") },
  origin: "https://example.amazonaws.com",
};
const s3 = {
  credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
  scope: { region: "us-east-1", service: "s3", now: new Date("2013-05-24T00:00:00Z") },
  origin: "https://examplebucket.s3.amazonaws.com",
};

describe("SigV4: AWS's Signature Version 4 test suite", () => {
  it("get-vanilla: canonical request, string to sign and Authorization header as published", () => {
    const signed = signV4({ method: "GET", origin: suite.origin, path: "/", payloadHash: EMPTY_PAYLOAD_HASH }, suite.credentials, suite.scope);
    expect(signed.canonicalRequest).toBe(
      "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(signed.stringToSign).toBe(
      "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
    );
    expect(signed.headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, " +
        "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    );
  });

  it.each([
    ["get-vanilla-query-order-key-case", "GET", "/", { Param2: "value2", Param1: "value1" }, "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"],
    ["get-utf8", "GET", "/ሴ", {}, "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"],
    ["post-vanilla", "POST", "/", {}, "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"],
  ])("%s", (_name, method, path, query, signature) => {
    const signed = signV4({ method, origin: suite.origin, path, query, payloadHash: EMPTY_PAYLOAD_HASH }, suite.credentials, suite.scope);
    expect(signed.signature).toBe(signature);
  });
});

describe("SigV4: the Amazon S3 API Reference's examples", () => {
  it("GET Object (a range): canonical request and string to sign as published", () => {
    const signed = signV4(
      { method: "GET", origin: s3.origin, path: "/test.txt", headers: { Range: "bytes=0-9", "x-amz-content-sha256": EMPTY_PAYLOAD_HASH }, payloadHash: EMPTY_PAYLOAD_HASH },
      s3.credentials,
      s3.scope,
    );
    expect(signed.canonicalRequest).toBe(
      "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\nx-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n" +
        "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(signed.stringToSign.split("\n").at(-1)).toBe("7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
    expect(signed.signature).toBe("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  });

  it("PUT Object: the body's hash is signed and '$' in the key is encoded", () => {
    const payloadHash = sha256Hex("Welcome to Amazon S3.");
    expect(payloadHash).toBe("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    const signed = signV4(
      {
        method: "PUT",
        origin: s3.origin,
        path: "/test$file.text",
        headers: { Date: "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY", "x-amz-content-sha256": payloadHash },
        payloadHash,
      },
      s3.credentials,
      s3.scope,
    );
    expect(signed.url).toBe("https://examplebucket.s3.amazonaws.com/test%24file.text");
    expect(signed.headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
        "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
    );
  });

  it("GET Bucket lifecycle (a sub-resource with no value)", () => {
    const signed = signV4(
      { method: "GET", origin: s3.origin, path: "/", query: { lifecycle: "" }, headers: { "x-amz-content-sha256": EMPTY_PAYLOAD_HASH }, payloadHash: EMPTY_PAYLOAD_HASH },
      s3.credentials,
      s3.scope,
    );
    expect(signed.url).toBe("https://examplebucket.s3.amazonaws.com/?lifecycle=");
    expect(signed.signature).toBe("fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  });

  it("GET Bucket (list objects): query parameters sorted", () => {
    const signed = signV4(
      { method: "GET", origin: s3.origin, path: "/", query: { prefix: "J", "max-keys": "2" }, headers: { "x-amz-content-sha256": EMPTY_PAYLOAD_HASH }, payloadHash: EMPTY_PAYLOAD_HASH },
      s3.credentials,
      s3.scope,
    );
    expect(signed.signature).toBe("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  });
});

describe("SigV4 encoding", () => {
  it("encodes everything but unreserved characters, keeping '/' only in paths", () => {
    expect(uriEncode("a b!'()*~._-Z9")).toBe("a%20b%21%27%28%29%2A~._-Z9");
    expect(uriEncode("products/a+b.webp", true)).toBe("products/a%2Bb.webp");
    expect(uriEncode("a/b")).toBe("a%2Fb");
    expect(uriEncode("ሴ")).toBe("%E1%88%B4");
  });

  it("sorts the query by encoded name, then value", () => {
    expect(canonicalQuery({ b: "2", a: "x y", A: "/" })).toBe("A=%2F&a=x%20y&b=2");
  });

  it("keeps a non-default port in the signed host", () => {
    const signed = signV4({ method: "HEAD", origin: "http://127.0.0.1:9000", path: "/bucket/k", payloadHash: EMPTY_PAYLOAD_HASH }, suite.credentials, suite.scope);
    expect(signed.headers.host).toBe("127.0.0.1:9000");
    expect(signed.url).toBe("http://127.0.0.1:9000/bucket/k");
  });
});
