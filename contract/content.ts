/**
 * The words and pictures of every page, one schema per concept (issue 19). Each field carries
 * its doc line as the schema's description: the admin's "Pages" editor shows it as the field's
 * help, so a field without one is a field she can't understand. The YAML files under
 * site/content/ have exactly these shapes: they seed a fresh database and are the build's
 * defaults. The server validates every save with these same schemas.
 */
import { z } from 'zod';
import { isCleanText } from './common.ts';
import { hoursInWords, rangeInWords, type Settings } from './settings.ts';

/** A required line or paragraph of text. */
const text = (doc: string, max = 4000) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .refine(isCleanText, 'contains characters that are not allowed')
    .describe(doc);
const line = (doc: string) => text(doc, 300);

/** The id of a photo she uploaded through the photo pipeline (`/api/images/{id}`). */
export const IMAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UPLOADED = /^\/api\/images\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The uploaded photo a picture field names, if it names one. */
export const uploadedImageId = (src: string): string | undefined => UPLOADED.exec(src)?.[1]?.toLowerCase();

/**
 * A picture: one of her uploaded photos (`/api/images/{id}`, served through the pipeline's
 * sizes), an illustration in site/public (`/images/…`), or a photo of the build
 * (`photos/<file>` in site/content/photos/).
 */
const picture = (doc: string) =>
  z
    .string({ error: 'is required' })
    .trim()
    .regex(/^(\/(?!\/)\S+|photos\/[\w./-]+\.(jpe?g|png|webp|avif))$/i, 'must be one of your photos, /images/… or photos/<file>')
    .describe(doc);

/** Optional SEO and sharing fields every page has. */
const seo = {
  title: line('The page title: the browser tab and the blue line of a search result (about 60 characters).'),
  description: text('One or two sentences under the title in search results and when the page is shared (about 155 characters).', 320),
  ogImage: picture('The picture shown when the page is shared (cut to 1200×630). Empty: the site’s default.').optional(),
};

const slide = z
  .object({ src: picture('The illustration or photo.'), alt: line('What the picture shows, for people who can’t see it.') })
  .describe('A slide shown while the gallery (admin page “Galleries”) is empty.');

const video = z
  .object({
    heading: line('The heading above the video.'),
    text: text('The paragraph beside the video.'),
    videoId: line('The YouTube video id (the part after watch?v=).'),
    videoTitle: line('The video’s title, read by screen readers.'),
    poster: picture('The still shown before the video is played.'),
  })
  .describe('A video section.');

const paragraphs = (doc: string) => z.array(text('A paragraph.')).describe(doc);
const headedList = <T extends z.ZodType>(doc: string, item: T) =>
  z.object({ heading: line('The section heading.'), items: z.array(item).describe(doc) }).describe(doc);

const navLink = z
  .object({
    label: line('The link’s words.'),
    href: z
      .string()
      .trim()
      .regex(/^\/(?!\/)[\w\-./]*$/, 'must be a path on this site, like /yoga')
      .describe('Where it goes: a path on this site, like /yoga.'),
  })
  .describe('A link.');

export const siteContent = z.object({
  teacherTitle: line('The yoga brand: the title in the yoga navigation bar, the footer and page titles.'),
  teacherName: line('Your name, as the footer’s copyright line shows it.'),
  jobTitle: line('What you do, in a few words, as search engines describe you (e.g. Yoga teacher, yoga therapist and chocolatier).').optional(),
  chocolateBrand: line('The chocolate brand: the title in the shop’s navigation bar (/chocolates, /cart) and its page titles.'),
  city: line('Your city, in the footer.'),
  tagline: line('The sentence under your name in the footer.'),
  mainNav: z.array(navLink).min(1).describe('The yoga navigation bar’s links, in order.'),
  shopNav: z.array(navLink).min(1).describe('The shop’s navigation bar’s links (/chocolates, /cart), in order.'),
  footerNav: z.array(navLink).min(1).describe('The footer’s links to pages of the site, in order.'),
  external: z
    .array(
      z.object({
        label: line('The link’s words.'),
        href: z
          .string()
          .trim()
          .regex(/^(https?:\/\/[^\s/$.?#][^\s]*|mailto:[^\s]+)$/i, 'must be a full web address (https://…) or a mailto: link')
          .describe('The full web address (https://…) or a mailto: link.'),
      }),
    )
    .describe('Footer links to outside sites: code repository, photos, marketplace shop.'),
  newsletter: z
    .object({ heading: line('The heading of the footer’s sign-up box.'), text: text('The sentence that says what subscribers get.') })
    .describe('The newsletter sign-up in every footer.'),
});

export const homeContent = z.object({
  ...seo,
  split: z
    .object({
      yoga: line('The yoga half’s heading.'),
      yogaLead: text('The yoga half’s sentence.'),
      chocolates: line('The chocolates half’s heading.'),
      chocolatesLead: text('The chocolates half’s sentence.'),
    })
    .describe('The two halves at the top of the home page.'),
  about: z.object({ heading: line('The section heading.'), paragraphs: paragraphs('The paragraphs about you.') }).describe('About you, on the home page.'),
  book: z
    .object({ heading: line('The section heading.'), text: text('The sentence above the free-meeting form.') })
    .describe('The free-meeting request section.'),
  sampleClass: video,
});

export const yogaContent = z.object({
  ...seo,
  hero: z.object({ heading: line('The big heading at the top.'), lead: text('The sentence under it.') }).describe('The top of the page.'),
  offerings: z
    .array(
      z
        .object({
          id: line('A short name for the card (letters and dashes), used by links to it.'),
          title: line('The card’s title.'),
          summary: text('The sentence on the card.'),
          image: picture('The card’s picture.'),
          imageAlt: line('What the picture shows, for people who can’t see it.'),
          details: paragraphs('The paragraphs of its “View More” dialog.'),
        })
        .describe('An offering card.'),
    )
    .length(3, 'must be exactly 3 cards')
    .describe('The three offering cards; their details fill the View More dialog.'),
  approach: z.object({ heading: line('The section heading.'), paragraphs: paragraphs('Its paragraphs.') }).describe('Your approach.'),
  sessions: headedList('What a session holds.', z.object({ title: line('The item’s title.'), text: text('Its sentence.') })),
  whoIWorkWith: headedList('Who you work with, one line each.', line('One kind of person or need.')),
  classDescriptions: z
    .object({
      heading: line('The section heading.'),
      intro: text('The sentence above the classes.'),
      classes: z
        .array(
          z
            .object({
              title: line('The class’s name.'),
              duration: line('How long it lasts, e.g. 60 minutes.'),
              level: line('Who it is for, e.g. All levels.'),
              description: text('What happens in it.'),
            })
            .describe('A class.'),
        )
        .describe('The group classes you teach.'),
    })
    .describe('The class descriptions (also on /calendar).'),
  faq: headedList(
    'Questions and answers (search engines read them as an FAQ).',
    z.object({ q: line('The question.'), a: text('The answer.') }).describe('A question and its answer.'),
  ),
  trainings: headedList('Your trainings and certificates.', z.object({ name: line('The training.'), detail: text('Where, when, how many hours.') })),
  readyToBegin: z
    .object({
      heading: line('The section heading.'),
      text: text('Its sentence.'),
      privateLabel: line('The private-session button’s words.'),
      groupLabel: line('The group-class button’s words.'),
    })
    .describe('The closing call to action.'),
  slides: z.array(slide).min(4, 'needs at least 4 slides').describe('The slideshow’s slides while the yoga gallery is empty.'),
});

export const aboutContent = z.object({
  ...seo,
  heading: line('The page heading.'),
  portrait: picture('Your portrait.'),
  portraitAlt: line('What the portrait shows, for people who can’t see it.'),
  paragraphs: paragraphs('The paragraphs about you.'),
  values: headedList('What you value, one line each.', line('One value.')),
});

export const aboutWebsiteContent = z.object({
  ...seo,
  heading: line('The page heading.'),
  intro: text('The sentence under it.'),
  stack: headedList('What the site is built with.', z.object({ name: line('The part.'), text: text('What it does.') })),
  planned: headedList('What is planned.', z.object({ name: line('The feature.'), text: text('What it will do.') })),
});

export const chocolatesContent = z.object({
  ...seo,
  hero: z
    .object({
      heading: line('The big heading at the top.'),
      lead: text('The sentence under it.'),
      orderLabel: line('The order button’s words.'),
      image: picture('The hero’s picture.'),
      imageAlt: line('What the picture shows, for people who can’t see it.'),
    })
    .describe('The top of the page.'),
  products: z.object({ heading: line('The section heading.'), intro: text('The sentence above the chocolates.') }).describe('The chocolates section.'),
  culture: z.object({ heading: line('The section heading.'), paragraphs: paragraphs('Its paragraphs.') }).describe('The story of the chocolate.'),
  shipping: headedList('Shipping and pickup, one line each.', text('One line.')),
  tasting: z
    .object({ heading: line('The section heading.'), text: text('Its sentence.'), price: line('The price line.'), cta: line('The button’s words.') })
    .describe('Tasting events.'),
  video,
  testimonials: headedList('What customers said.', z.object({ quote: text('Their words.'), name: line('Their name.') }).describe('A testimonial.')),
  slides: z.array(slide).min(4, 'needs at least 4 slides').describe('The slideshow’s slides while the chocolates gallery is empty.'),
});

export const waiverContent = z.object({
  heading: line('The waiver’s heading.'),
  paragraphs: paragraphs('The waiver’s text. Every change is a new version; each sign-up keeps the version it accepted.'),
  agreement: line('The sentence the student ticks to accept it.'),
});

export const contactContent = z.object({
  ...seo,
  heading: line('The page heading.'),
  intro: text('The sentence above the form.'),
  details: z
    .array(z.object({ label: line('What it is, e.g. Studio.'), value: text('The address or hours.') }))
    .describe('Addresses and hours beside the form.'),
});

/** The pages the site is built with, by slug (the YAML file's name; `home` is `/`). */
export const builtinPageSchemas = {
  site: siteContent,
  home: homeContent,
  yoga: yogaContent,
  about: aboutContent,
  aboutwebsite: aboutWebsiteContent,
  chocolates: chocolatesContent,
  contact: contactContent,
  waiver: waiverContent,
} as const;
export type BuiltinSlug = keyof typeof builtinPageSchemas;
export const BUILTIN_SLUGS = Object.keys(builtinPageSchemas) as BuiltinSlug[];
export type SiteContent = { [K in BuiltinSlug]: z.infer<(typeof builtinPageSchemas)[K]> };
export const isBuiltinSlug = (slug: string): slug is BuiltinSlug => Object.hasOwn(builtinPageSchemas, slug);

/** The public address of each built-in page (site and waiver are parts of other pages). */
export const BUILTIN_PATHS: Record<BuiltinSlug, string> = {
  site: '/',
  home: '/',
  yoga: '/yoga',
  about: '/about',
  aboutwebsite: '/aboutwebsite',
  chocolates: '/chocolates',
  contact: '/contact',
  waiver: '/signup',
};
/** Human names of the built-in pages, for the admin's list. */
export const BUILTIN_TITLES: Record<BuiltinSlug, string> = {
  site: 'Every page: brand names, navigation, footer',
  home: 'Home',
  yoga: 'Yoga',
  about: 'About',
  aboutwebsite: 'About this website',
  chocolates: 'Chocolates',
  contact: 'Contact',
  waiver: 'Liability waiver',
};

// ---------------------------------------------------------------------------------------------
// Pages she adds

/**
 * The addresses the site serves itself (its pages, files and API) are refused by the server,
 * which derives them from its routes (api/pages/served-paths.ts, issue 29): this schema can't
 * read a folder. It refuses the built-in pages' own keys, which her pages share a table with.
 */
const SLUG_RESERVED = 'This address is used by the site itself: choose another slug';

export const SLUG_RULE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const pageSlug = z
  .string({ error: 'Slug is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Slug is required')
  .max(80, 'Slug must be at most 80 characters')
  .regex(SLUG_RULE, 'Slug may hold only lowercase letters, digits and single dashes (like chronic-pain-support)')
  .refine((s) => !isBuiltinSlug(s), SLUG_RESERVED)
  .describe('The page’s address: /your-slug. Lowercase letters, digits and dashes.');

/** A slug from a title: "Chronic Pain Support" → "chronic-pain-support". */
export const slugify = (title: string): string =>
  title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');

export const CTA_PRESETS = {
  book: { label: 'Book a session', href: '/user' },
  calendar: { label: 'See the calendar', href: '/calendar' },
  contact: { label: 'Send a message', href: '/contact' },
  chocolates: { label: 'Order chocolates', href: '/chocolates' },
} as const;

const cta = z
  .union([
    z.enum(Object.keys(CTA_PRESETS) as [keyof typeof CTA_PRESETS]).transform((k) => ({ ...CTA_PRESETS[k] })),
    z.object({
      label: line('The button’s words, e.g. Book a session.'),
      href: z
        .string()
        .trim()
        .regex(/^(\/(?!\/)[\w\-./?=&#]*|https:\/\/\S+|mailto:\S+)$/, 'must be a path on this site (/calendar), an https:// address or a mailto: link')
        .describe('Where the button goes: /calendar, /user, an https:// address or a mailto: link.'),
    }),
  ])
  .describe('An optional button at the end of the page, such as “Book a session” or “See the calendar”.');

export const pageSection = z
  .object({
    heading: z
      .string()
      .trim()
      .max(200, 'must be at most 200 characters')
      .refine(isCleanText, 'contains characters that are not allowed')
      .optional()
      .describe('An optional heading above the section.'),
    markdown: text('The section’s text in Markdown: **bold**, *italic*, [a link](https://…), lists with -, ## headings, > quotes. No HTML.', 20000),
    imageId: z.string().trim().regex(IMAGE_ID, 'must be one of your uploaded photos').optional().describe('An optional photo beside the text.'),
    imageAlt: z
      .string()
      .trim()
      .max(300)
      .refine(isCleanText, 'contains characters that are not allowed')
      .optional()
      .describe('What the photo shows, for people who can’t see it (required with a photo).'),
  })
  .describe('A section of text with an optional photo.');

export const customPageContent = z.object({
  title: line('The page heading, and its title in search results and the browser tab.'),
  seoTitle: z
    .string()
    .trim()
    .max(120)
    .refine(isCleanText, 'contains characters that are not allowed')
    .optional()
    .describe('A different title for search results (empty: the heading).'),
  description: text('One or two sentences under the title in search results and when the page is shared (about 155 characters).', 320),
  ogImage: z
    .string()
    .trim()
    .regex(IMAGE_ID, 'must be one of your uploaded photos')
    .optional()
    .describe('The photo shown when the page is shared (cut to 1200×630). Empty: the site’s default.'),
  brand: z
    .enum(['yoga', 'chocolates'], { error: 'Brand must be yoga or chocolates' })
    .describe('Which side of the site it belongs to: its colours and navigation.'),
  sections: z.array(pageSection).min(1, 'needs at least one section').max(30, 'may have at most 30 sections').describe('The page’s sections, in order.'),
  cta: cta.optional(),
  inNavigation: z.boolean().default(false).describe('Show a link to it in its brand’s navigation bar.'),
  inFooter: z.boolean().default(false).describe('Show a link to it in the footer.'),
});
export type CustomPageContent = z.infer<typeof customPageContent>;
export type PageSection = z.infer<typeof pageSection>;

/** POST /api/admin/pages: a new page from the template, saved as a draft. */
export const createPageBody = customPageContent.extend({ slug: pageSlug.optional() });

/** The schema that validates a page's content, by slug. */
export const schemaOfPage = (slug: string) => (isBuiltinSlug(slug) ? builtinPageSchemas[slug] : customPageContent);

// ---------------------------------------------------------------------------------------------
// What the admin API answers

export interface PageListItem {
  slug: string;
  kind: 'builtin' | 'custom';
  title: string;
  /** Its public address (`null` for a page of hers that isn't published). */
  path: string | null;
  updatedAt: string;
  /** The revision the public sees; `null` when it isn't published. */
  publishedVersion: number | null;
  publishedAt: string | null;
  /** The draft differs from what is published. */
  hasUnpublishedChanges: boolean;
  brand?: 'yoga' | 'chocolates';
}

export interface PageDetail {
  slug: string;
  kind: 'builtin' | 'custom';
  path: string | null;
  /** The draft (shaped like the page's YAML). */
  content: unknown;
  /** The draft's version: send it back with a save; a stale one is refused. */
  version: number;
  publishedVersion: number | null;
  publishedAt: string | null;
  hasUnpublishedChanges: boolean;
}

export interface PageRevision {
  n: number;
  publishedAt: string;
  /** The fields that changed against the revision before (dotted paths), or ['created']. */
  changed: string[];
  /** Set when this revision restored an earlier one. */
  restoredFrom: number | null;
  current: boolean;
}

export const savePageBody = z.object({ content: z.unknown(), version: z.number({ error: 'version is required' }).int().min(0) });
export const renamePageBody = z.object({ slug: pageSlug });

export const PAGE_MESSAGES = {
  stale:
    'This page was saved elsewhere (another tab or device) since you opened it. Your changes were not saved: reload to see the newest draft, then make them again.',
  notFound: 'No such page',
  slugTaken: 'Another page already uses this address: choose another slug',
  slugReserved: SLUG_RESERVED,
  builtinOnly: 'The site’s own pages can’t be renamed, unpublished or deleted',
  noRevision: 'No such revision',
  previewUnavailable: 'Preview needs the built site (npm run build)',
  altRequired: 'needs alt text: say what the photo shows',
} as const;

// ---------------------------------------------------------------------------------------------
// What the server hands a page it renders ahead of the request (Astro.locals.render)

import type { PictureView } from './images.ts';
import type { ProductView } from './chocolates.ts';
import type { PackageView } from './packages.ts';

export interface NavLinkView {
  label: string;
  href: string;
}

/** A chocolate as structured data needs it (schema.org Product on /chocolates). */
export interface ProductFact {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  inStock: boolean;
  /** Absolute or site-relative URL of its photo. */
  image: string | null;
}

/** A class as structured data needs it (schema.org Event on /calendar). */
export interface ClassFact {
  id: string;
  title: string;
  description: string;
  location: string;
  /** ISO instants. */
  start: string;
  end: string | null;
  priceCents: number | null;
  placesLeft: number | null;
}

/**
 * Her settings a page's words can show (issue 30): she writes `{notice period}` in a FAQ answer
 * and the server writes the setting's value in when it draws the page (and draws her pages again
 * when she changes the setting), so her words cannot disagree with the rule the site enforces.
 * The page editor lists them with their help line.
 */
export const SETTING_PLACEHOLDERS = {
  '{notice period}': {
    help: 'how long before a session a client can still cancel or move it online (Settings), e.g. “24 hours”',
    value: (s: Pick<Settings, 'cancelNoticeHours'>) => hoursInWords(s.cancelNoticeHours),
  },
  '{individual yoga amounts}': {
    help: 'the amounts an individual yoga session accepts (Settings), e.g. “$80–$110”',
    value: (s: Pick<Settings, 'bookingAmounts'>) => rangeInWords(s.bookingAmounts.ranges.individualYoga),
  },
  '{yoga therapy amounts}': {
    help: 'the amounts a yoga therapy session accepts (Settings), e.g. “$10–$80”',
    value: (s: Pick<Settings, 'bookingAmounts'>) => rangeInWords(s.bookingAmounts.ranges.yogaTherapy),
  },
} as const satisfies Record<string, { help: string; value: (s: Settings) => string }>;

const PLACEHOLDER_PATTERN = new RegExp(
  Object.keys(SETTING_PLACEHOLDERS)
    .map((k) => k.replace(/[{}]/g, '\\$&'))
    .join('|'),
  'g',
);

/** `value` (a page's content, any shape) with every placeholder's setting written in. */
export function fillPlaceholders<T>(value: T, settings: Settings): T {
  if (typeof value === 'string')
    return value.replace(PLACEHOLDER_PATTERN, (key) => SETTING_PLACEHOLDERS[key as keyof typeof SETTING_PLACEHOLDERS].value(settings)) as T;
  if (Array.isArray(value)) return value.map((v) => fillPlaceholders(v, settings)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, settings)])) as T;
  return value;
}

/**
 * The clock a page is drawn with (DESIGN.md "One clock, one zone"): the server's instant and her
 * zone (SITE_TIMEZONE). An island draws its first frame from it, so the browser hydrates to the
 * text the server wrote whatever the visitor's own zone and hour; then it reads the live time,
 * still in `zone` (site/lib/clock.ts).
 */
export interface PageClock {
  /** ISO instant of the render. */
  now: string;
  /** Her IANA zone: every day and time a person reads is on its clocks. */
  zone: string;
}

export interface RenderContext {
  /** The public address the page is rendered for (canonical URL, the navigation's current link). */
  path: string;
  /** Set by the server's renderer for every page it draws (api/pages/render-ahead.ts). */
  clock?: PageClock;
  /** Her settings as they are, for the words a page writes from them (fillPlaceholders; issue 30). */
  settings?: Settings;
  /** Every built-in page's published content (a preview puts its draft in its place). */
  content: SiteContent;
  /** Her uploaded photos that the content names, by id. */
  images: Record<string, PictureView>;
  /** Her published pages' links, added to the navigation bars and the footer. */
  extraNav: { yoga: NavLinkView[]; chocolates: NavLinkView[]; footer: NavLinkView[] };
  /** On a page of hers: its content and each section's Markdown already made safe HTML. */
  page?: { slug: string; content: CustomPageContent; sectionsHtml: string[] };
  /** For structured data. */
  products: ProductFact[];
  /** On /chocolates: the grid as the public API shows it, drawn in the page made ahead (issue 25). */
  shop?: ProductView[];
  classes: ClassFact[];
  /** On /yoga: the packages she offers, as GET /api/packages shows them (issue 32). */
  packages?: PackageView[];
  /** A preview of a draft: marked, never indexed. */
  preview: boolean;
  /** On a page of her journal (/blog…): the post, or the list of posts, made by the server. */
  journal?: JournalRender;
}

// ---------------------------------------------------------------------------------------------
// Her journal (issue 22, decision 0021): posts are pages of their own kind, published at /blog/{slug}

/** A post's address rule: a page's slug rule; only posts are its neighbours under /blog/. */
export const postSlug = z
  .string({ error: 'Slug is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Slug is required')
  .max(80, 'Slug must be at most 80 characters')
  .regex(SLUG_RULE, 'Slug may hold only lowercase letters, digits and single dashes (like slow-mornings)')
  .describe('The post’s address: /blog/your-slug. Made from the title; lowercase letters, digits and dashes.');

/** A topic tag: one short lowercase word (dashes between words), its page at /blog/tag/{tag}. */
export const TAG_RULE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/**
 * She types a topic as she says it ("Back pain", "Crème brûlée"); it is kept as its address
 * form ("back-pain", "creme-brulee"), as Ghost makes a tag's slug from its name (issue 30).
 */
export const postTag = z
  .string({ error: 'A tag is required' })
  .overwrite(slugify)
  .min(1, 'needs a letter or a digit')
  .max(30, 'must be at most 30 characters')
  .regex(TAG_RULE, 'must be one lowercase word (letters, digits, dashes), like breathwork')
  .describe('One topic in a word or a few, like breathwork or back pain: kept as back-pain, its page at /blog/tag/back-pain.');

/** About 8 000 words: a long read, and a whole post still fits a newsletter. */
export const POST_BODY_MAX = 50_000;
export const POST_TAGS_MAX = 10;

/** The words and pictures of one post. */
export const postContent = z.object({
  title: line('The post’s heading, and its title in the journal, in search results and in the feed.'),
  slug: postSlug,
  body: text(
    'The post in Markdown: ## headings, **bold**, *italic*, [a link](https://…), lists with -, > quotes, and photos with “Insert a photo” below. No HTML.',
    POST_BODY_MAX,
  ),
  coverImageId: z
    .string()
    .trim()
    .regex(IMAGE_ID, 'must be one of your uploaded photos')
    .optional()
    .describe('The photo at the top of the post, on its card in the journal and when it is shared (cut to 1200×630).'),
  coverAlt: z
    .string()
    .trim()
    .max(300, 'must be at most 300 characters')
    .refine(isCleanText, 'contains characters that are not allowed')
    .optional()
    .describe('What the cover photo shows, for people who can’t see it (required with a cover photo).'),
  excerpt: z
    .string()
    .trim()
    .max(500, 'must be at most 500 characters')
    .refine(isCleanText, 'contains characters that are not allowed')
    .optional()
    .describe('One or two sentences on the post’s card and in the newsletter. Empty: the start of the post.'),
  brand: z
    .enum(['yoga', 'chocolates'], { error: 'Brand must be yoga or chocolates' })
    .describe('Which side of the site it belongs to: its colours and navigation.'),
  tags: z
    .array(postTag)
    .max(POST_TAGS_MAX, `may have at most ${POST_TAGS_MAX} tags`)
    .refine((tags) => new Set(tags).size === tags.length, 'must not name a tag twice')
    .default([])
    .describe('Topics: each has its page of posts at /blog/tag/…'),
  seoTitle: z
    .string()
    .trim()
    .max(120, 'must be at most 120 characters')
    .refine(isCleanText, 'contains characters that are not allowed')
    .optional()
    .describe('A different title for search results (empty: the heading).'),
  seoDescription: z
    .string()
    .trim()
    .max(320, 'must be at most 320 characters')
    .refine(isCleanText, 'contains characters that are not allowed')
    .optional()
    .describe('One or two sentences under the title in search results and when shared (empty: the excerpt).'),
});
export type PostContent = z.infer<typeof postContent>;

/** An instant she picks for a scheduled post (ISO 8601 with its offset, as the browser sends it). */
const instant = z.iso.datetime({ offset: true, error: 'must be a date and time' }).describe('When the post publishes itself.');

/** POST /api/admin/posts: a new post, a draft (or scheduled, with `publishAt`); the slug comes from the title when left out. */
export const createPostBody = postContent.extend({ slug: postSlug.optional(), publishAt: instant.optional() });

/** PUT /api/admin/posts/{id}: the content, and the version the editor saw (a stale one is refused). */
export const savePostBody = z.object({ content: z.unknown(), version: z.number({ error: 'version is required' }).int().min(0).optional() });

/** POST /api/admin/posts/{id}/schedule: `at` in the future, or null to cancel the schedule. */
export const schedulePostBody = z.object({ at: instant.nullable() });

/** POST /api/admin/posts/{id}/newsletter: the excerpt and a link (the default), or the whole post. */
export const postNewsletterBody = z.object({
  full: z.boolean({ error: 'must be true or false' }).default(false).describe('Send the whole post, not its excerpt.'),
});

/**
 * POST /api/admin/pages/{slug}/publish and /api/admin/posts/{id}/publish, body optional: the draft
 * version the editor last saw, so that only that draft is published.
 */
export const publishBody = z.object({
  version: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be a whole number').optional(),
});

/** A photo in a post's text: the editor's “Insert a photo” fills this, then writes ![alt](/api/images/{id}). */
export const inlinePhoto = z.object({
  imageId: z.string().trim().regex(IMAGE_ID, 'must be one of your uploaded photos').describe('A photo to put into the text where the cursor is.'),
  imageAlt: line('What the photo shows, for people who can’t see it.'),
});

export type PostState = 'draft' | 'scheduled' | 'published' | 'unpublished';

export interface PostListItem {
  id: string;
  /** The draft's slug (the public address follows it on the next publish). */
  slug: string;
  title: string;
  state: PostState;
  brand: 'yoga' | 'chocolates';
  tags: string[];
  /** Its public address while published. */
  path: string | null;
  /** Scheduled: when it publishes itself. */
  publishAt: string | null;
  /** Its date (the first publish), kept through an unpublish. */
  date: string | null;
  publishedAt: string | null;
  updatedAt: string;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  coverImageId: string | null;
  newsletterSentAt: string | null;
}

export interface PostDetail extends PostListItem {
  /** The draft. */
  content: PostContent;
  version: number;
}

export const POST_MESSAGES = {
  notFound: 'No such post',
  slugTaken: 'Another post already uses this address: choose another slug',
  stale: PAGE_MESSAGES.stale.replace('This page', 'This post'),
  altRequired: PAGE_MESSAGES.altRequired,
  past: 'must be in the future',
  notPublished: 'Publish the post first: only a published post can be sent as a newsletter.',
  alreadySent: 'This post was sent as a newsletter already: each post is sent once.',
  noSubscribers: 'There are no subscribers to send this post to.',
  previewUnavailable: PAGE_MESSAGES.previewUnavailable,
  noRevision: PAGE_MESSAGES.noRevision,
} as const;

// ---------------------------------------------------------------------------------------------
// What a journal page rendered ahead is handed (RenderContext.journal)

/** One post as a card and as its page's head. */
export interface PostCardView {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  brand: 'yoga' | 'chocolates';
  tags: string[];
  /** Its date (the first publish), an ISO instant, and as words in the teacher's zone. */
  date: string;
  dateLabel: string;
  /** Its last publish, an ISO instant. */
  updated: string;
  readingMinutes: number;
  cover: { id: string; alt: string } | null;
}

export interface PostView extends PostCardView {
  /** The body, made safe HTML by the server (inline photos as the pipeline's <picture>). */
  html: string;
  seoTitle: string;
  seoDescription: string;
  wordCount: number;
}

export interface PostLinkView {
  slug: string;
  title: string;
}

export type JournalRender =
  | { kind: 'post'; post: PostView; newer: PostLinkView | null; older: PostLinkView | null }
  | {
      kind: 'index';
      posts: PostCardView[];
      /** 1-based; `pages` ≥ 1. */
      page: number;
      pages: number;
      /** A tag's page, or the journal itself. */
      tag: string | null;
      /** Its first page: /blog or /blog/tag/{tag}; page n is `${base}/page/${n}`. */
      base: string;
    };

/** How many posts one page of the journal (or of a tag) lists. */
export const POSTS_PER_PAGE = 10;
