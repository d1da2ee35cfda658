/**
 * The site's words live in YAML files under site/content/ (one per page, plus site.yaml for
 * the navigation and footer), so the teacher can edit copy without touching components.
 * Each file is checked against its schema at build time: a missing field fails the build.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

const one = <S extends z.ZodType>(name: string, schema: S) => defineCollection({ loader: glob({ pattern: `${name}.yaml`, base: './site/content' }), schema });

const text = z.string().min(1);
/**
 * A picture named in the YAML: `/images/...` (an illustration in site/public, served as it is)
 * or `photos/<file>` (a JPEG, PNG, WebP or AVIF dropped in site/content/photos/, made into
 * AVIF and WebP sizes at build by site/components/Photo.astro). A missing photo fails the build.
 */
const picture = z.string().regex(/^(\/(?!\/)\S+|photos\/[\w./-]+\.(jpe?g|png|webp|avif))$/i, 'a path under /images/… or photos/<file>.jpg|png|webp|avif');
/** A slide shown while the teacher's gallery (admin page "Galleries") is empty: an illustration, with its alt text. */
const image = { src: text, alt: text };
const page = { title: text, description: text };
const video = z.object({ heading: text, text, videoId: text, videoTitle: text, poster: text });

export const collections = {
  site: one(
    'site',
    z.object({
      /** Title in the yoga navigation bar. */
      teacherTitle: text,
      teacherName: text,
      /** Title in the chocolates navigation bar (/chocolates, /cart). */
      chocolateBrand: text,
      city: text,
      tagline: text,
      /** Footer links to outside sites: code repository, photos, marketplace shop. */
      external: z.array(z.object({ label: text, href: z.string().url() })),
      newsletter: z.object({ heading: text, text }),
    }),
  ),
  home: one(
    'home',
    z.object({
      ...page,
      split: z.object({ yoga: text, yogaLead: text, chocolates: text, chocolatesLead: text }),
      about: z.object({ heading: text, paragraphs: z.array(text) }),
      book: z.object({ heading: text, text }),
      sampleClass: video,
    }),
  ),
  yoga: one(
    'yoga',
    z.object({
      ...page,
      hero: z.object({ heading: text, lead: text }),
      /** The three offering cards; `details` fill the View More dialog. */
      offerings: z
        // image: a picture (see `picture` above); imageAlt: its alt text.
        .array(z.object({ id: text, title: text, summary: text, image: picture, imageAlt: text, details: z.array(text) }))
        .length(3),
      approach: z.object({ heading: text, paragraphs: z.array(text) }),
      sessions: z.object({ heading: text, items: z.array(z.object({ title: text, text })) }),
      whoIWorkWith: z.object({ heading: text, items: z.array(text) }),
      classDescriptions: z.object({
        heading: text,
        intro: text,
        classes: z.array(z.object({ title: text, duration: text, level: text, description: text })),
      }),
      faq: z.object({ heading: text, items: z.array(z.object({ q: text, a: text })) }),
      trainings: z.object({ heading: text, items: z.array(z.object({ name: text, detail: text })) }),
      readyToBegin: z.object({ heading: text, text, privateLabel: text, groupLabel: text }),
      slides: z.array(z.object(image)).min(4),
    }),
  ),
  about: one(
    'about',
    z.object({
      ...page,
      heading: text,
      /** The teacher's portrait: a picture (see `picture` above). */
      portrait: picture,
      portraitAlt: text,
      paragraphs: z.array(text),
      values: z.object({ heading: text, items: z.array(text) }),
    }),
  ),
  aboutwebsite: one(
    'aboutwebsite',
    z.object({
      ...page,
      heading: text,
      intro: text,
      stack: z.object({ heading: text, items: z.array(z.object({ name: text, text })) }),
      planned: z.object({ heading: text, items: z.array(z.object({ name: text, text })) }),
    }),
  ),
  chocolates: one(
    'chocolates',
    z.object({
      ...page,
      /** image: the hero's picture (see `picture` above); imageAlt: its alt text. */
      hero: z.object({ heading: text, lead: text, orderLabel: text, image: picture, imageAlt: text }),
      products: z.object({ heading: text, intro: text }),
      culture: z.object({ heading: text, paragraphs: z.array(text) }),
      shipping: z.object({ heading: text, items: z.array(text) }),
      tasting: z.object({ heading: text, text, price: text, cta: text }),
      video,
      testimonials: z.object({ heading: text, items: z.array(z.object({ quote: text, name: text })) }),
      slides: z.array(z.object(image)).min(4),
    }),
  ),
  /** The liability waiver new students accept on /signup. */
  waiver: one('waiver', z.object({ heading: text, paragraphs: z.array(text), agreement: text })),
  contact: one('contact', z.object({ ...page, heading: text, intro: text, details: z.array(z.object({ label: text, value: text })) })),
};
