import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/** The URL tree (SPEC §2 route table). Route modules are thin: parse → call a module → return data. */
export default [
  // storefront
  index("routes/home.tsx"),
  route("shop", "routes/shop.tsx"),
  route("products/:slug", "routes/product.tsx"),
  route("scent-finder", "routes/scent-finder.tsx"),
  route("discovery-set", "routes/discovery-set.tsx"),
  route("gift-cards", "routes/gift-cards.tsx"),
  // the rewards programme's rules, joining and leaving (personal: never cached; only while it is on)
  route("rewards", "routes/rewards.tsx"),
  // a member's referral link (docs/decisions/063): remembers the code, then the home page
  route("r/:code", "routes/r.$code.ts"),
  route("terms", "routes/terms.tsx"),
  route("privacy", "routes/privacy.tsx"),
  route("seller", "routes/seller.tsx"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  // wishlists and back-in-stock alerts (docs/decisions/057)
  route("wishlist", "routes/wishlist.tsx"),
  route("wishlist/shared/:token", "routes/wishlist.shared.$token.tsx"),
  route("wishlist/alerts-off", "routes/wishlist.alerts-off.tsx"),
  route("stock-alerts", "routes/stock-alerts.tsx"),
  route("stock-alerts/confirm", "routes/stock-alerts.confirm.tsx"),

  // accounts
  ...prefix("auth", [
    route("login", "routes/auth.login.tsx"),
    route("register", "routes/auth.register.tsx"),
    route("forgot-password", "routes/auth.forgot-password.tsx"),
    route("reset-password", "routes/auth.reset-password.tsx"),
    route("logout", "routes/auth.logout.ts"),
    // two-step sign-in, passkeys and "confirm it's you" (docs/decisions/059)
    route("two-step", "routes/auth.two-step.tsx"),
    route("confirm", "routes/auth.confirm.tsx"),
    route("passkey", "routes/auth.passkey.ts"),
  ]),
  // an invitation to join the staff: its e-mail's single-use link (works signed out, and without JavaScript)
  route("staff/invitation", "routes/staff.invitation.tsx"),
  // the profile's tabs, one page each in the profile's frame (the old ?tab= addresses redirect to them)
  route("profile", "routes/profile.tsx", [
    index("routes/profile._index.tsx"),
    route("orders", "routes/profile.orders.tsx"),
    // the shopper's reward points and their history (only while the programme is on: docs/decisions/062)
    route("rewards", "routes/profile.rewards.tsx"),
    route("preferences", "routes/profile.preferences.tsx"),
    route("security", "routes/profile.security.tsx"),
  ]),
  // a person's own data (POPIA s23, s24): the download (a resource route: a ZIP) and the deletion page
  route("profile/my-data", "routes/profile.my-data.ts"),
  route("profile/delete-account", "routes/profile.delete-account.tsx"),
  // a marketing e-mail's signed one-click unsubscribe link (works signed out; RFC 8058 posts here too)
  route("unsubscribe", "routes/unsubscribe.tsx"),
  // the same link in the List-Unsubscribe header: a mail program's one-click POST (a resource route, RFC 8058)
  route("unsubscribe/one-click", "routes/unsubscribe.one-click.ts"),

  // money path
  route("cart", "routes/cart.tsx"),
  route("checkout", "routes/checkout.tsx"),
  route("checkout/delivery", "routes/checkout.delivery.ts"),
  route("payment-status", "routes/payment-status.tsx"),
  route("order-confirmation", "routes/order-confirmation.tsx"),
  // the order's invoice as a PDF download (a resource route)
  route("orders/:id/invoice.pdf", "routes/orders.invoice[.]pdf.ts"),
  // a gift card the order bought, as a printable PDF
  route("orders/:id/gift-cards/:cardId/card.pdf", "routes/orders.gift-card[.]pdf.ts"),
  // returns within the cooling-off period and their credit notes (docs/decisions/041)
  route("orders/:id/return", "routes/orders.return.tsx"),
  // an unpaid-order reminder's link: back to the order's payment page (docs/decisions/056)
  route("orders/:id/pay", "routes/orders.pay.ts"),
  route("returns/:id/credit-note.pdf", "routes/returns.credit-note[.]pdf.ts"),
  route("pay/simulated/:checkoutId", "routes/pay.simulated.tsx"),
  route("pay/form/:orderId", "routes/pay.form.tsx"),
  route("payment/eft/:orderId", "routes/payment.eft.tsx"),
  route("webhooks/payments/:provider", "routes/webhooks.payments.ts"),
  route("webhooks/couriers/:courier", "routes/webhooks.couriers.ts"),
  // Meta's WhatsApp webhooks: the subscription check (GET) and signed statuses and replies (POST)
  route("webhooks/whatsapp", "routes/webhooks.whatsapp.ts"),
  // the signed "stop WhatsApp updates" link of the order e-mails (works signed out)
  route("whatsapp/stop", "routes/whatsapp.stop.tsx"),
  route("api/coupons/validate", "routes/api.coupons.validate.ts"),
  route("api/gift-cards/check", "routes/api.gift-cards.check.ts"),
  route("api/reviews", "routes/api.reviews.ts"),
  route("api/me", "routes/api.me.ts"),
  // a signed-in shopper's cart kept on the server, and a cart reminder's restore link (docs/decisions/056)
  route("api/cart", "routes/api.cart.ts"),
  route("api/cart/restore", "routes/api.cart.restore.ts"),
  route("api/wishlist", "routes/api.wishlist.ts"),
  route("api/stock-alerts", "routes/api.stock-alerts.ts"),

  // admin (every page and action checks the role on the server)
  ...prefix("admin", [
    // the product form's image upload (a resource route: JSON, no page)
    route("products/images", "routes/admin.products.images.ts"),
    // a booking's courier label (a PDF)
    route("orders/:id/label.pdf", "routes/admin.orders.label[.]pdf.ts"),
    // every product as a CSV (streamed)
    route("products/export.csv", "routes/admin.products.export[.]csv.ts"),
    // an import's rows with errors as a CSV, to fix and import again
    route("products/import/rows-with-errors.csv", "routes/admin.products.import.rows-with-errors[.]csv.ts"),
    // the orders of a range of days as a CSV for the accountant (streamed)
    route("orders/export.csv", "routes/admin.orders.export[.]csv.ts"),
    // the numbers behind one of the dashboard's charts as a CSV
    route("sales.csv", "routes/admin.sales[.]csv.ts"),
    // the whole consent log as a CSV (streamed)
    route("consents.csv", "routes/admin.consents[.]csv.ts"),
    // the activity log as a CSV (docs/decisions/060)
    route("activity.csv", "routes/admin.activity[.]csv.ts"),
    // a backup archive (streamed)
    route("data/backups/:name", "routes/admin.data.backups.$name.ts"),
    layout("routes/admin.tsx", [
      index("routes/admin._index.tsx"),
      route("orders", "routes/admin.orders.tsx"),
      route("products", "routes/admin.products.tsx"),
      route("products/add", "routes/admin.products.add.tsx"),
      route("products/edit/:id", "routes/admin.products.edit.tsx"),
      route("products/import", "routes/admin.products.import.tsx"),
      route("categories", "routes/admin.categories.tsx"),
      route("coupons", "routes/admin.coupons.tsx"),
      route("gift-cards", "routes/admin.gift-cards.tsx"),
      route("gift-cards/:id", "routes/admin.gift-cards.$id.tsx"),
      route("reviews", "routes/admin.reviews.tsx"),
      route("users", "routes/admin.users.tsx"),
      route("shipping", "routes/admin.shipping.tsx"),
      route("pricing", "routes/admin.pricing.tsx"),
      route("samples", "routes/admin.samples.tsx"),
      route("inbox", "routes/admin.inbox.tsx"),
      route("returns", "routes/admin.returns.tsx"),
      route("returns/:id", "routes/admin.returns.$id.tsx"),
      route("data", "routes/admin.data.tsx"),
      route("privacy", "routes/admin.privacy.tsx"),
      route("marketing", "routes/admin.marketing.tsx"),
      route("marketing/reminders", "routes/admin.marketing.reminders.tsx"),
      route("marketing/rewards", "routes/admin.marketing.rewards.tsx"),
      route("marketing/:id", "routes/admin.marketing.$id.tsx"),
      route("whatsapp", "routes/admin.whatsapp.tsx"),
      // the people who run the shop, their roles and invitations (docs/decisions/058)
      route("staff", "routes/admin.staff.tsx"),
      route("activity", "routes/admin.activity.tsx"),
    ]),
  ]),

  // any unknown path shows Home, with status 404
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
