/**
 * The schema.org builders (site/lib/structured-data.ts): each says what the page's content and
 * facts say, in the shapes search engines read, and the JSON can't end its script element.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { siteContent, type ClassFact, type ProductFact } from '../../../contract/content.ts';
import { inlineScriptHashesOf } from '../../../api/middleware/security-headers.ts';
import {
  addressOf,
  chocolateShop,
  classEvents,
  faqPage,
  jsonLdText,
  products,
  teacher,
  webPage,
  yogaBusiness,
  type Thing,
} from '../../../site/lib/structured-data.ts';

const site = siteContent.parse(parse(readFileSync(new URL('../../../site/content/site.yaml', import.meta.url), 'utf8')));
const base = new URL('https://yoga.example/');

const product = (over: Partial<ProductFact> = {}): ProductFact => ({
  id: 'p1',
  name: 'Sea Salt Caramel Tin',
  description: 'Burnt-sugar caramel.',
  priceCents: 1200,
  inStock: true,
  image: '/api/images/0b6a3c8e-0000-4000-8000-000000000001',
  ...over,
});
const aClass = (over: Partial<ClassFact> = {}): ClassFact => ({
  id: 'e1',
  title: 'Gentle Flow',
  description: 'Gentle Flow',
  location: 'Community Studio, 12 Alder St',
  start: '2031-03-04T02:00:00.000Z',
  end: null,
  priceCents: null,
  placesLeft: 5,
  ...over,
});

describe('structured data', () => {
  it('an FAQPage: each question with its answer, in order; none for an empty FAQ', () => {
    const faq = faqPage(
      {
        items: [
          { q: 'What should I bring?', a: 'Comfortable clothes.' },
          { q: 'Is it heated?', a: 'No.' },
        ],
      },
      'https://yoga.example/yoga',
    );
    expect(faq).toEqual({
      '@type': 'FAQPage',
      url: 'https://yoga.example/yoga',
      mainEntity: [
        { '@type': 'Question', name: 'What should I bring?', acceptedAnswer: { '@type': 'Answer', text: 'Comfortable clothes.' } },
        { '@type': 'Question', name: 'Is it heated?', acceptedAnswer: { '@type': 'Answer', text: 'No.' } },
      ],
    });
    expect(faqPage({ items: [] }, 'https://yoga.example/yoga')).toBeUndefined();
  });

  it('the teacher as a Person: her name, job, city and profiles, linked to her two businesses', () => {
    const person = teacher(site, base, { image: '/images/yoga/portrait.svg' });
    expect(person).toMatchObject({
      '@type': 'Person',
      '@id': 'https://yoga.example/#teacher',
      name: site.teacherName,
      jobTitle: site.jobTitle,
      url: 'https://yoga.example/about',
      image: 'https://yoga.example/images/yoga/portrait.svg',
      address: { '@type': 'PostalAddress', addressLocality: 'Portland', addressRegion: 'Oregon' },
      sameAs: site.external.map((l) => l.href),
    });
    expect(person.worksFor).toEqual([{ '@id': yogaBusiness(site, base)['@id'] }, { '@id': chocolateShop(site, base)['@id'] }]);
    // A build photo (photos/…) has no address of its own before Astro makes it: left out.
    expect(teacher(site, base, { image: 'photos/me.jpg' })).not.toHaveProperty('image');
    const withMail = { ...site, external: [...site.external, { label: 'Write to me', href: 'mailto:maya@example.com' }] };
    expect(teacher(withMail, base).sameAs).toEqual(site.external.map((l) => l.href));
    // An older database's site content has no job title: none is made up.
    expect(teacher({ ...site, jobTitle: undefined }, base)).not.toHaveProperty('jobTitle');
  });

  it('a city without a region is only a locality', () => {
    expect(addressOf('Portland')).toEqual({ '@type': 'PostalAddress', addressLocality: 'Portland' });
  });

  it('the yoga business and the chocolate shop under their brand names', () => {
    expect(yogaBusiness(site, base)).toMatchObject({ '@type': 'LocalBusiness', name: site.teacherTitle, url: 'https://yoga.example/yoga' });
    expect(chocolateShop(site, base, { description: 'Tins.' })).toMatchObject({
      '@type': 'Store',
      name: site.chocolateBrand,
      description: 'Tins.',
      url: 'https://yoga.example/chocolates',
      founder: { '@type': 'Person', name: site.teacherName },
    });
  });

  it('a Product per chocolate: dollars as a two-decimal string, availability from the stock, absolute image', () => {
    const [tin, soldOut, noPhoto] = products(
      [product(), product({ id: 'p2', name: 'Chai', priceCents: 1850, inStock: false }), product({ id: 'p3', image: null, description: '' })],
      site,
      base,
    ) as [Thing, Thing, Thing];
    expect(tin).toMatchObject({
      '@type': 'Product',
      name: 'Sea Salt Caramel Tin',
      description: 'Burnt-sugar caramel.',
      image: 'https://yoga.example/api/images/0b6a3c8e-0000-4000-8000-000000000001',
      brand: { '@type': 'Brand', name: site.chocolateBrand },
      offers: { '@type': 'Offer', price: '12.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock', url: 'https://yoga.example/chocolates' },
    });
    expect(soldOut.offers).toMatchObject({ price: '18.50', availability: 'https://schema.org/OutOfStock' });
    expect(noPhoto).not.toHaveProperty('image');
    expect(noPhoto).not.toHaveProperty('description');
    expect(products([], site, base)).toEqual([]);
  });

  it('an Event per class: its start, place, organizer and places left; its description from her class descriptions', () => {
    const [event, external, priced] = classEvents(
      [
        aClass(),
        aClass({ id: 'e2', title: 'Outdoor Vinyasa', description: 'Outdoor Vinyasa', placesLeft: null, location: '' }),
        aClass({ id: 'e3', priceCents: 2500, placesLeft: 0 }),
      ],
      site,
      base,
      [{ title: 'gentle flow', description: 'Slow, mindful movement.' }],
    ) as [Thing, Thing, Thing];
    expect(event).toMatchObject({
      '@type': 'Event',
      name: 'Gentle Flow',
      description: 'Slow, mindful movement.',
      startDate: '2031-03-04T02:00:00.000Z',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      eventStatus: 'https://schema.org/EventScheduled',
      location: {
        '@type': 'Place',
        name: 'Community Studio, 12 Alder St',
        address: { '@type': 'PostalAddress', streetAddress: 'Community Studio, 12 Alder St', addressLocality: 'Portland', addressRegion: 'Oregon' },
      },
      organizer: { '@type': 'Person', name: site.teacherName },
      url: 'https://yoga.example/calendar',
      remainingAttendeeCapacity: 5,
    });
    expect(event).not.toHaveProperty('offers');
    expect(event).not.toHaveProperty('endDate');
    // A class booked elsewhere: its places aren't counted here, and its title is no description.
    expect(external).not.toHaveProperty('remainingAttendeeCapacity');
    expect(external).not.toHaveProperty('description');
    expect(external.location).toMatchObject({ name: site.city });
    expect(priced).toMatchObject({
      remainingAttendeeCapacity: 0,
      offers: { '@type': 'Offer', price: '25.00', priceCurrency: 'USD', availability: 'https://schema.org/SoldOut' },
    });
  });

  it('a WebPage for a page of hers', () => {
    const page = webPage(
      {
        name: 'Chronic Pain Support',
        description: 'Gentle help.',
        url: 'https://yoga.example/chronic-pain-support',
        image: '/api/images/x/og.jpg',
        brand: site.teacherTitle,
      },
      base,
    );
    expect(page).toMatchObject({
      '@type': 'WebPage',
      name: 'Chronic Pain Support',
      url: 'https://yoga.example/chronic-pain-support',
      primaryImageOfPage: { '@type': 'ImageObject', url: 'https://yoga.example/api/images/x/og.jpg' },
      isPartOf: { '@type': 'WebSite', name: site.teacherTitle, url: 'https://yoga.example/' },
    });
  });

  it('one graph per script; nothing at all when there is nothing to say', () => {
    const json = jsonLdText([teacher(site, base), undefined]);
    expect(JSON.parse(json!)).toEqual({ '@context': 'https://schema.org', '@graph': [teacher(site, base)] });
    expect(jsonLdText([])).toBeUndefined();
    expect(jsonLdText([undefined])).toBeUndefined();
  });

  it('her text can’t close the script element: every < is \\u003c, and the JSON still reads the same', () => {
    const hostile = { items: [{ q: 'A </script><script>alert(1)</script> question <!--', a: 'An answer with </SCRIPT > and <b>tags</b>.' }] };
    const json = jsonLdText([faqPage(hostile, 'https://yoga.example/yoga')])!;
    expect(json).not.toContain('<');
    const parsed = JSON.parse(json) as { '@graph': Thing[] };
    expect(parsed['@graph'][0]).toEqual(faqPage(hostile, 'https://yoga.example/yoga'));
  });

  it('a JSON-LD script is data: the Content-Security-Policy hashes only scripts the browser runs', () => {
    const json = jsonLdText([teacher(site, base)])!;
    const html = `<head><script type="application/ld+json">${json}</script><script>console.log(1)</script></head>`;
    expect(inlineScriptHashesOf(html)).toHaveLength(1);
    expect(inlineScriptHashesOf(`<script type="application/ld+json">${json}</script>`)).toEqual([]);
  });
});
