import 'astro';
declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when the visitor reaches for the island (site/directives/interaction.ts). */
    'client:interaction'?: boolean;
  }
}
