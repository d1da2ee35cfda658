/**
 * schema.org structured data (JSON-LD) made from what the page itself shows: her published
 * words (contract/content.ts) and the facts the server hands a page it renders ahead (products,
 * classes). Search engines read it for rich results (FAQ answers, prices, class dates), so it
 * must never say something the page doesn't: every value comes from the same source the page
 * renders. Pure functions of their arguments, so a unit test covers them without a build.
 */
import type { ClassFact, ProductFact, SiteContent } from '../../contract/content';
import { plainDollars, toDollars } from './money';

/** One schema.org node: a `@type` and its properties. */
export type Thing = { '@type': string; '@id'?: string } & Record<string, unknown>;

type Site = SiteContent['site'];
/** The site's origin (Astro.site): every URL in structured data is absolute. */
type Base = URL | string;

const SCHEMA = 'https://schema.org';

export const absoluteUrl = (path: string, base: Base): string => new URL(path, base).href;

/** Ids tie the nodes together (a product's seller, a class's organizer) across pages. */
export const ids = {
  teacher: (base: Base) => absoluteUrl('/#teacher', base),
  yoga: (base: Base) => absoluteUrl('/yoga#business', base),
  shop: (base: Base) => absoluteUrl('/chocolates#shop', base),
};

/** "Portland, Oregon" → locality Portland, region Oregon (her city is one line of text). */
export function addressOf(city: string): Thing {
  const [locality = city, ...rest] = city.split(',').map((part) => part.trim());
  const region = rest.filter(Boolean).join(', ');
  return { '@type': 'PostalAddress', addressLocality: locality, ...(region ? { addressRegion: region } : {}) };
}

/** Only a picture with an address of its own: a photo of the build (`photos/…`) has none until Astro makes it. */
const imageUrl = (picture: string | null | undefined, base: Base): string | undefined =>
  picture && (picture.startsWith('/') || /^https?:\/\//.test(picture)) ? absoluteUrl(picture, base) : undefined;

/** The teacher. `sameAs` links her other profiles, so search engines know them for hers. */
export function teacher(site: Site, base: Base, options: { image?: string; description?: string } = {}): Thing {
  const image = imageUrl(options.image, base);
  // A mailto: link in the footer is a way to write to her, not a profile of hers.
  const profiles = site.external.map((l) => l.href).filter((href) => /^https?:\/\//i.test(href));
  return {
    '@type': 'Person',
    '@id': ids.teacher(base),
    name: site.teacherName,
    ...(site.jobTitle ? { jobTitle: site.jobTitle } : {}),
    ...(options.description ? { description: options.description } : {}),
    url: absoluteUrl('/about', base),
    ...(image ? { image } : {}),
    address: addressOf(site.city),
    ...(profiles.length ? { sameAs: profiles } : {}),
    worksFor: [{ '@id': ids.yoga(base) }, { '@id': ids.shop(base) }],
  };
}

/** A reference to the teacher that stands on its own where her full node isn't on the page. */
const teacherRef = (site: Site, base: Base): Thing => ({
  '@type': 'Person',
  '@id': ids.teacher(base),
  name: site.teacherName,
  url: absoluteUrl('/about', base),
});

/** One of her two businesses: its kind, id, name and page; in her city, founded by her. */
function business(site: Site, base: Base, own: { type: string; id: string; name: string; path: string }, description?: string): Thing {
  return {
    '@type': own.type,
    '@id': own.id,
    name: own.name,
    ...(description ? { description } : {}),
    url: absoluteUrl(own.path, base),
    image: absoluteUrl('/og-image.png', base),
    address: addressOf(site.city),
    areaServed: site.city,
    founder: teacherRef(site, base),
  };
}

/** Her yoga teaching, under the yoga brand. */
export const yogaBusiness = (site: Site, base: Base, options: { description?: string } = {}): Thing =>
  business(site, base, { type: 'LocalBusiness', id: ids.yoga(base), name: site.teacherTitle, path: '/yoga' }, options.description);

/** The chocolate shop, under the chocolate brand. */
export const chocolateShop = (site: Site, base: Base, options: { description?: string } = {}): Thing =>
  business(site, base, { type: 'Store', id: ids.shop(base), name: site.chocolateBrand, path: '/chocolates' }, options.description);

/** The FAQ on /yoga: each question with its answer, exactly as the page shows them. */
export function faqPage(faq: { items: readonly { q: string; a: string }[] }, url: string): Thing | undefined {
  if (faq.items.length === 0) return undefined;
  return {
    '@type': 'FAQPage',
    url,
    mainEntity: faq.items.map((item) => ({ '@type': 'Question', name: item.q, acceptedAnswer: { '@type': 'Answer', text: item.a } })),
  };
}

/** Each chocolate with its price and whether a tin is left, as the shop's grid shows it. */
export function products(facts: readonly ProductFact[], site: Site, base: Base): Thing[] {
  const url = absoluteUrl('/chocolates', base);
  return facts.map((p) => {
    const image = imageUrl(p.image, base);
    return {
      '@type': 'Product',
      name: p.name,
      ...(p.description ? { description: p.description } : {}),
      ...(image ? { image } : {}),
      brand: { '@type': 'Brand', name: site.chocolateBrand },
      offers: {
        '@type': 'Offer',
        // The Offer's price is a plain decimal string: "12.00", never "$12" nor 12.
        price: plainDollars(toDollars(p.priceCents)),
        priceCurrency: 'USD',
        availability: `${SCHEMA}/${p.inStock ? 'InStock' : 'OutOfStock'}`,
        url,
        seller: { '@type': 'Store', '@id': ids.shop(base), name: site.chocolateBrand },
      },
    };
  });
}

/**
 * Each coming class. Its description comes from her class descriptions on /yoga when one has
 * the class's name (the calendar's entries carry only a title); places left when the class
 * counts them (a class on another site's booking doesn't).
 */
export function classEvents(
  facts: readonly ClassFact[],
  site: Site,
  base: Base,
  descriptions: readonly { title: string; description: string }[] = [],
): Thing[] {
  const url = absoluteUrl('/calendar', base);
  const described = new Map(descriptions.map((d) => [d.title.trim().toLowerCase(), d.description]));
  return facts.map((c) => {
    const description = described.get(c.title.trim().toLowerCase()) ?? (c.description !== c.title ? c.description : undefined);
    const soldOut = c.placesLeft === 0;
    return {
      '@type': 'Event',
      name: c.title,
      ...(description ? { description } : {}),
      startDate: c.start,
      ...(c.end ? { endDate: c.end } : {}),
      eventAttendanceMode: `${SCHEMA}/OfflineEventAttendanceMode`,
      eventStatus: `${SCHEMA}/EventScheduled`,
      location: {
        '@type': 'Place',
        name: c.location || site.city,
        address: { ...addressOf(site.city), ...(c.location ? { streetAddress: c.location } : {}) },
      },
      organizer: teacherRef(site, base),
      performer: teacherRef(site, base),
      url,
      ...(c.placesLeft !== null ? { remainingAttendeeCapacity: c.placesLeft } : {}),
      ...(c.priceCents !== null
        ? {
            offers: {
              '@type': 'Offer',
              price: plainDollars(toDollars(c.priceCents)),
              priceCurrency: 'USD',
              availability: `${SCHEMA}/${soldOut ? 'SoldOut' : 'InStock'}`,
              url,
            },
          }
        : {}),
    };
  });
}

/** A page she made: what it is and whose site it belongs to. */
export function webPage(page: { name: string; description: string; url: string; image?: string; brand: string }, base: Base): Thing {
  const image = imageUrl(page.image, base);
  return {
    '@type': 'WebPage',
    name: page.name,
    description: page.description,
    url: page.url,
    ...(image ? { primaryImageOfPage: { '@type': 'ImageObject', url: image } } : {}),
    isPartOf: { '@type': 'WebSite', name: page.brand, url: absoluteUrl('/', base) },
  };
}

/**
 * The JSON of one `<script type="application/ld+json">`: every node in one graph. `<` is
 * written as \u003c (the same string to a JSON parser), so no text of hers — a `</script>` in
 * an FAQ answer — can end the script element early.
 */
export function jsonLdText(things: readonly (Thing | undefined)[]): string | undefined {
  const graph = things.filter((t): t is Thing => t !== undefined);
  if (graph.length === 0) return undefined;
  return JSON.stringify({ '@context': SCHEMA, '@graph': graph }).replace(/</g, '\\u003c');
}

/** The journal itself (/blog, a tag's page): a Blog whose posts the page lists. */
export function blog(
  page: { name: string; description: string; url: string; posts: readonly { title: string; url: string; date: string }[] },
  base: Base,
): Thing {
  return {
    '@type': 'Blog',
    '@id': absoluteUrl('/blog#blog', base),
    name: page.name,
    description: page.description,
    url: page.url,
    inLanguage: 'en',
    blogPost: page.posts.map((p) => ({ '@type': 'BlogPosting', headline: p.title, url: p.url, datePublished: p.date })),
  };
}

/**
 * One post of her journal (issue 22): what search engines show for an article, from the page's
 * own words, dates and cover (its 1200×630 cut). Google cuts a headline after 110 characters.
 */
export function blogPosting(
  post: {
    title: string;
    description: string;
    url: string;
    datePublished: string;
    dateModified: string;
    /** Site-relative or absolute: the cover's 1200×630 cut. */
    image?: string | undefined;
    tags: readonly string[];
    wordCount: number;
    /** The brand it is published under. */
    brand: string;
  },
  site: Site,
  base: Base,
): Thing {
  const image = imageUrl(post.image, base);
  const headline = post.title.length > 110 ? `${post.title.slice(0, 109).trimEnd()}…` : post.title;
  return {
    '@type': 'BlogPosting',
    '@id': `${post.url}#post`,
    headline,
    name: post.title,
    description: post.description,
    url: post.url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': post.url },
    datePublished: post.datePublished,
    dateModified: post.dateModified,
    author: teacherRef(site, base),
    publisher: {
      '@type': 'Organization',
      name: post.brand,
      url: absoluteUrl('/', base),
      logo: { '@type': 'ImageObject', url: absoluteUrl('/favicon.svg', base) },
    },
    ...(image ? { image: [image] } : {}),
    ...(post.tags.length ? { keywords: post.tags.join(', ') } : {}),
    wordCount: post.wordCount,
    inLanguage: 'en',
    isPartOf: { '@type': 'Blog', '@id': absoluteUrl('/blog#blog', base), name: 'Journal', url: absoluteUrl('/blog', base) },
  };
}
