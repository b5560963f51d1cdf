import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  build: { target: "es2022" },
  environments: {
    // The server build's entry is our HTTP server (server/app.ts), which imports React Router's build as a
    // virtual module; one bundle then holds the server and the app modules it shares.
    // cssMinify: the stylesheet is inlined from the server build (app/entry.server.tsx), so minify it there too.
    ssr: { build: { target: "node24", cssMinify: true, rolldownOptions: { input: "./server/app.ts" } } },
  },
});
