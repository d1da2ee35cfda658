/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /**
     * Set by the server when it renders a public page ahead of the request or previews a draft
     * (api/pages/publisher.ts); absent at build time, where pages show the YAML defaults.
     */
    render?: import('../contract/content').RenderContext;
  }
}
