/**
 * Structured data as search engines read it (issue 19): the real server with the built site and
 * a seeded shop and calendar, each public page's JSON-LD parsed and checked against the content
 * and facts the page was made from. And the 1200×630 cut a shared page shows.
 */
import type { ProductView } from '../../../contract/chocolates.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { smallJpeg } from '../../helpers/photos.ts';
import { scriptHash } from '../../../api/middleware/security-headers.ts';
import type { SiteContent } from '../../../contract/content.ts';
import type { ImageUploadedView } from '../../../contract/images.ts';
import { fillPlaceholders } from '../../../contract/content.ts';
import { DEFAULT_SETTINGS } from '../../../contract/settings.ts';
import type { Thing } from '../../../site/lib/structured-data.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const server = useTestServer({ site: true, seedContent: true });
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(server);
});

const LD_SCRIPT = /<script\b[^>]*\btype="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/gi;

/** Every JSON-LD block of a page, parsed, with the page's CSP. */
async function structuredData(path: string): Promise<{ nodes: Thing[]; blocks: string[]; csp: string; html: string }> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const blocks = [...html.matchAll(LD_SCRIPT)].map((m) => m[1]!);
  const nodes = blocks.flatMap((block) => {
    const json = JSON.parse(block) as { '@context': string; '@graph'?: Thing[] } & Partial<Thing>;
    expect(json['@context'], path).toBe('https://schema.org');
    return json['@graph'] ?? [json as Thing];
  });
  return { nodes, blocks, csp: res.headers.get('content-security-policy') ?? '', html };
}

const ofType = (nodes: Thing[], type: string) => nodes.filter((n) => n['@type'] === type);

async function content<K extends keyof SiteContent>(slug: K): Promise<{ content: SiteContent[K]; version: number }> {
  const res = await server.api(`/api/admin/pages/${slug}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return (await res.json()) as { content: SiteContent[K]; version: number };
}

describe(`structured data on every public page, ${testDbKind()}`, () => {
  it('/yoga: an FAQPage of the FAQ she published, question by question', async () => {
    // As published, with her settings written in where her words name them ({notice period}: issue 30).
    const yoga = fillPlaceholders((await content('yoga')).content, DEFAULT_SETTINGS);
    const { nodes } = await structuredData('/yoga');
    const [faq] = ofType(nodes, 'FAQPage');
    expect(faq).toBeDefined();
    const questions = must(faq, 'faq').mainEntity as { '@type': string; name: string; acceptedAnswer: { '@type': string; text: string } }[];
    expect(itemAt(questions, 0).name).toBe(itemAt(yoga.faq.items, 0).q);
    expect(questions.map((q) => [q['@type'], q.name, q.acceptedAnswer['@type'], q.acceptedAnswer.text])).toEqual(
      yoga.faq.items.map((i) => ['Question', i.q, 'Answer', i.a]),
    );
  });

  it('/ and /about: the teacher as a Person; / also her yoga business and her chocolate shop', async () => {
    const { content: site } = await content('site');
    for (const path of ['/', '/about']) {
      const { nodes } = await structuredData(path);
      const [person] = ofType(nodes, 'Person');
      expect(person, path).toMatchObject({
        name: site.teacherName,
        jobTitle: site.jobTitle,
        address: { '@type': 'PostalAddress', addressLocality: 'Portland', addressRegion: 'Oregon' },
        sameAs: site.external.map((l) => l.href),
      });
      expect(String(must(person, 'person').url), path).toMatch(/^https?:\/\/[^/]+\/about$/);
    }
    const { nodes } = await structuredData('/');
    expect(ofType(nodes, 'LocalBusiness')).toEqual([expect.objectContaining({ name: site.teacherTitle })]);
    expect(ofType(nodes, 'Store')).toEqual([expect.objectContaining({ name: site.chocolateBrand })]);
  });

  it('/chocolates: the shop, and a Product with its price and availability for each chocolate', async () => {
    const { content: site } = await content('site');
    const chocolates = (await (await server.api('/api/chocolates')).json()) as { name: string; price: number; inventory: number; description: string }[];
    expect(chocolates.length).toBeGreaterThan(0);
    const { nodes } = await structuredData('/chocolates');
    expect(ofType(nodes, 'Store')).toEqual([expect.objectContaining({ name: site.chocolateBrand })]);
    const listed = ofType(nodes, 'Product');
    expect(listed).toHaveLength(chocolates.length);
    for (const chocolate of chocolates) {
      const found = listed.find((p) => p.name === chocolate.name);
      expect(found, chocolate.name).toMatchObject({
        description: chocolate.description,
        offers: {
          '@type': 'Offer',
          price: chocolate.price.toFixed(2),
          priceCurrency: 'USD',
          availability: chocolate.inventory > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        },
      });
      expect(String(must(found, 'found').image)).toMatch(/^https?:\/\//);
    }
  });

  it('/chocolates: a tin sold out is OutOfStock once the page is made again', async () => {
    const [first] = (await (await server.api('/api/chocolates')).json()) as ProductView[];
    const res = await server.api(`/api/chocolates/${must(first, 'first')._id}`, {
      method: 'PUT',
      headers: { cookie },
      json: {
        name: must(first, 'first').name,
        image: must(first, 'first').image,
        description: must(first, 'first').description,
        details: must(first, 'first').details,
        price: must(first, 'first').price,
        inventory: 0,
      },
    });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => ofType((await structuredData('/chocolates')).nodes, 'Product').find((p) => p.name === must(first, 'first').name)?.offers, {
        timeout: 5000,
      })
      .toMatchObject({ availability: 'https://schema.org/OutOfStock' });
  });

  it('/calendar: an Event for each coming class, in the future, with its place and organizer', async () => {
    const { content: site } = await content('site');
    const { nodes } = await structuredData('/calendar');
    const events = ofType(nodes, 'Event');
    expect(events.length).toBeGreaterThan(0);
    const now = Date.now();
    for (const event of events) {
      expect(Date.parse(String(event.startDate)), String(event.name)).toBeGreaterThan(now);
      expect(event).toMatchObject({
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        eventStatus: 'https://schema.org/EventScheduled',
        location: { '@type': 'Place', address: { '@type': 'PostalAddress', addressLocality: 'Portland' } },
        organizer: { '@type': 'Person', name: site.teacherName },
      });
      expect(typeof event.remainingAttendeeCapacity).toBe('number');
    }
    const { content: yoga } = await content('yoga');
    const gentle = events.find((e) => e.name === 'Gentle Flow');
    expect(gentle?.description).toBe(yoga.classDescriptions.classes.find((c) => c.title === 'Gentle Flow')?.description);
  });

  it('no JSON-LD block is hashed into the Content-Security-Policy: it is data, not a script', async () => {
    for (const path of ['/', '/yoga', '/about', '/chocolates', '/calendar']) {
      const { blocks, csp } = await structuredData(path);
      expect(blocks.length, path).toBe(1);
      expect(csp, path).toContain('script-src');
      for (const block of blocks) expect(csp, path).not.toContain(scriptHash(block));
    }
  });
});

describe(`the Open Graph picture, ${testDbKind()}`, () => {
  let imageId: string;
  beforeAll(async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await smallJpeg(900, 1200))], { type: 'image/jpeg' }), 'portrait.jpg');
    const res = await server.api('/api/admin/images', { method: 'POST', body: form, headers: { cookie } });
    expect(res.status).toBe(201);
    imageId = ((await res.json()) as ImageUploadedView).url.split('/').pop()!;
  });

  it('GET /api/images/{id}/og.jpg: her photo cut to exactly 1200×630, a JPEG that never changes', async () => {
    const res = await fetch(`${server.url}/api/images/${imageId}/og.jpg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630]);
    // Asked again: the same bytes under the same URL.
    const again = Buffer.from(await (await fetch(`${server.url}/api/images/${imageId}/og.jpg`)).arrayBuffer());
    expect(again.equals(bytes)).toBe(true);
  });

  it('an unknown photo: 404 with a message', async () => {
    const res = await fetch(`${server.url}/api/images/00000000-0000-4000-8000-000000000000/og.jpg`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Image not found' });
  });

  it('a page’s ogImage field: shared with its 1200×630 cut; without one, the site’s default', async () => {
    const before = (await structuredData('/about')).html;
    expect(before).toMatch(/<meta property="og:image" content="https?:\/\/[^"]+\/og-image\.png"/);

    const { content: about, version } = await content('about');
    const saved = await server.api('/api/admin/pages/about', {
      method: 'PUT',
      headers: { cookie },
      json: { content: { ...about, ogImage: `/api/images/${imageId}` }, version },
    });
    expect(saved.status).toBe(200);
    const published = await server.api('/api/admin/pages/about/publish', { method: 'POST', headers: { cookie } });
    expect(published.status).toBe(200);

    await expect
      .poll(async () => (await structuredData('/about')).html, { timeout: 5000 })
      .toMatch(new RegExp(`<meta property="og:image" content="https?://[^"]+/api/images/${imageId}/og\\.jpg"`));
    const html = (await structuredData('/about')).html;
    expect(html).toContain('<meta property="og:image:width" content="1200"');
    expect(html).toContain('<meta property="og:image:height" content="630"');
  });

  it('a page of hers: a WebPage with its title, description and sharing picture', async () => {
    const created = await server.api('/api/admin/pages', {
      method: 'POST',
      headers: { cookie },
      json: {
        slug: 'chronic-pain-support',
        title: 'Chronic Pain Support',
        brand: 'yoga',
        description: 'Gentle, steady yoga therapy for people living with chronic pain.',
        ogImage: imageId,
        sections: [{ markdown: 'We begin where you are.' }],
      },
    });
    expect(created.status).toBe(201);
    const published = await server.api('/api/admin/pages/chronic-pain-support/publish', { method: 'POST', headers: { cookie } });
    expect(published.status).toBe(200);
    await expect.poll(async () => (await fetch(`${server.url}/chronic-pain-support`)).status, { timeout: 5000 }).toBe(200);
    const { nodes, html } = await structuredData('/chronic-pain-support');
    const [page] = ofType(nodes, 'WebPage');
    expect(page).toMatchObject({
      name: 'Chronic Pain Support',
      description: 'Gentle, steady yoga therapy for people living with chronic pain.',
      primaryImageOfPage: { '@type': 'ImageObject', url: expect.stringMatching(new RegExp(`/api/images/${imageId}/og\\.jpg$`)) },
    });
    expect(String(must(page, 'page').url)).toMatch(/\/chronic-pain-support$/);
    expect(html).toMatch(new RegExp(`<meta property="og:image" content="https?://[^"]+/api/images/${imageId}/og\\.jpg"`));
  });
});
