// Static build: every API body, page and player is rendered to dist/ (see docs/architecture.md).
import { defineConfig } from "astro/config";
import { finishBuild } from "./src/build/integration.ts";

export default defineConfig({
  output: "static",
  trailingSlash: "never",
  build: { format: "file" },
  integrations: [finishBuild()],
  devToolbar: { enabled: false },
});
