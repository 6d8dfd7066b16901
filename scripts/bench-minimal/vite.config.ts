// The minimal page's build: only the framework's plugin (its options in react-router.config.ts beside this file).
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  root: new URL(".", import.meta.url).pathname,
  plugins: [reactRouter()],
});
