/**
 * The shop's fake WhatsApp Cloud API on a loopback port, with the shop's real client pointed at it, for integration
 * tests: what the shop sends crosses real HTTP in the Cloud API's shapes, and the fake's signed webhooks go straight
 * into the real /webhooks/whatsapp route. The fake itself lives in app/modules/whatsapp/ (the demo runs it in-process).
 */
import { RouterContextProvider } from "react-router";
import { requestInfoContext } from "~/context";
import { createCloudApiClient } from "~/modules/whatsapp/cloud-api.server";
import { startFakeCloudApi } from "~/modules/whatsapp/fake-cloud-api.server";
import { setWhatsappClientForTests, templateBodies, whatsappAppSecret } from "~/modules/whatsapp/whatsapp.server";
import { action as webhookAction } from "~/routes/webhooks.whatsapp";
import { TEST_ORIGIN } from "../setup/route";

/** POSTs a body with these headers to the real webhook route, as Meta would; answers its Response. */
export async function postWhatsappWebhook(body: string, headers: Record<string, string>): Promise<Response> {
  const request = new Request(new URL("/webhooks/whatsapp", TEST_ORIGIN), { method: "POST", body, headers });
  const context = new RouterContextProvider();
  context.set(requestInfoContext, { requestId: "test", nonce: "test", ip: "127.0.0.1" });
  return (await webhookAction({ request, params: {}, context } as never)) as Response;
}

export async function installFakeWhatsapp() {
  const responses: number[] = [];
  const fake = await startFakeCloudApi({
    appSecret: whatsappAppSecret(),
    templates: templateBodies(),
    deliver: async (body, headers) => {
      responses.push((await postWhatsappWebhook(body, headers)).status);
    },
  });
  const client = createCloudApiClient({ baseUrl: fake.baseUrl, version: "v21.0", phoneNumberId: fake.phoneNumberId, accessToken: fake.accessToken, test: true, timeoutMs: 5_000 });
  setWhatsappClientForTests(client);
  return {
    fake,
    client,
    /** the status of every webhook the fake delivered, in order */
    responses,
    async uninstall() {
      setWhatsappClientForTests(null);
      await fake.close();
    },
  };
}
