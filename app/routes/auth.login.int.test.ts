import { describe, expect, it } from "vitest";
import { getDb } from "~/db/db.server";
import { callAction, callLoader, dataOf } from "../../tests/setup/route";
import { createUser } from "../../tests/factories/users";
import * as login from "./auth.login";
import * as register from "./auth.register";

describe("redirect after sign-in never leaves the shop", () => {
  it.each(["/.//evil.example/x", "/..//evil.example", "/%2e//evil.example", "/a/..//evil.example", "/\\evil.example", "/%5Cevil.example", "/\t/evil.example"])(
    "sign-in with redirect=%j lands on a page of this shop",
    async (target) => {
      const user = await createUser(getDb());
      const result = await callAction(login.action, "/auth/login", { email: user.email, password: user.password, redirect: target }, { ip: `10.77.${Math.floor(Math.random() * 250)}.1` });
      const location = (result as Response).headers.get("location")!;
      expect(location.startsWith("/")).toBe(true);
      expect(location.startsWith("//")).toBe(false);
      expect(new URL(location, "http://shop.test").host).toBe("shop.test");
    },
  );

  it("the login and register pages drop a redirect that leaves the shop, and keep one that doesn't", async () => {
    expect((await dataOf(await callLoader(login.loader, "/auth/login?redirect=%2F.%2F%2Fevil.example%2Fx"))).redirectTo).toBe("");
    expect((await dataOf(await callLoader(register.loader, "/auth/register?redirect=%2F..%2F%2Fevil.example"))).redirectTo).toBe("");
    expect((await dataOf(await callLoader(login.loader, "/auth/login?redirect=%2Fcheckout"))).redirectTo).toBe("/checkout");
  });
});
