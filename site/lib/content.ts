import { getEntry } from 'astro:content';
import { fillPlaceholders, uploadedImageId, type BuiltinSlug, type SiteContent } from '../../contract/content';
import { DEFAULT_SETTINGS } from '../../contract/settings';

/**
 * A page's words: what the teacher published (the server hands it over when it renders the
 * page ahead of the request, or her draft in a preview), else the build's default from
 * site/content/<name>.yaml (its placeholders filled with the settings' defaults; the server fills
 * hers in what it hands over).
 */
export async function copy<K extends BuiltinSlug>(locals: App.Locals, name: K): Promise<SiteContent[K]> {
  const published = locals.render?.content[name];
  if (published) return published;
  const entry = await getEntry(name, name);
  if (!entry) throw new Error(`site/content/${name}.yaml is missing`);
  return fillPlaceholders(entry.data as SiteContent[K], DEFAULT_SETTINGS);
}

/** Words of a page's own that name her settings ({yoga therapy amounts}…), written in as they are now (issue 30). */
export const withSettings = (locals: App.Locals, text: string): string => fillPlaceholders(text, locals.render?.settings ?? DEFAULT_SETTINGS);

/** The public address the page is for: the server names it when it renders ahead. */
export const publicPath = (astro: { locals: App.Locals; url: URL }): string => astro.locals.render?.path ?? (astro.url.pathname.replace(/(.)\/$/, '$1') || '/');

/**
 * A page's sharing picture (its `ogImage` field): one of her uploaded photos, cut to 1200×630 by
 * the server (GET /api/images/{id}/og.jpg); anything else, or none, shares the site's default
 * (an illustration or a build photo has no 1200×630 cut).
 */
export function ogImageOf(picture: string | undefined): string | undefined {
  const id = picture ? uploadedImageId(picture) : undefined;
  return id ? `/api/images/${id}/og.jpg` : undefined;
}
