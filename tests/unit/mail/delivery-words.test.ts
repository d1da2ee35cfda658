/**
 * Issue 20: what the buyer and the client are told. Carriers' tracking pages (contract/orders.ts),
 * the admin's confirmation line, a place that is a web address (contract/slots.ts), and a mail
 * that links only the addresses it is told to (api/mail/layout.ts).
 */
import { describe, expect, it } from 'vitest';
import { knownCarrier, statusConfirmation, trackingUrl } from '../../../contract/orders.ts';
import { placeLink } from '../../../contract/slots.ts';
import { renderMail } from '../../../api/mail/layout.ts';

describe('tracking', () => {
  it('links the four known carriers, whatever the spelling, and nothing else', () => {
    expect(knownCarrier('usps')).toBe('USPS');
    expect(knownCarrier('Fed Ex')).toBe('FedEx');
    expect(knownCarrier('D.H.L.')).toBe('DHL');
    expect(knownCarrier('Bike courier')).toBeUndefined();
    expect(trackingUrl('UPS', '1Z 999')).toBe('https://www.ups.com/track?tracknum=1Z%20999');
    expect(trackingUrl('USPS', '9400')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400');
    expect(trackingUrl('FedEx', '77')).toBe('https://www.fedex.com/fedextrack/?trknbr=77');
    expect(trackingUrl('DHL', '12')).toBe('https://www.dhl.com/us-en/home/tracking/tracking-express.html?submit=1&tracking-id=12');
    expect(trackingUrl('Bike courier', '12')).toBeNull();
    expect(trackingUrl('UPS', '')).toBeNull();
  });

  it('confirms on screen what was set and who was told', () => {
    expect(statusConfirmation('shipped', 'Ana', 'sent', true)).toBe('Marked shipped. Ana was mailed the tracking number.');
    expect(statusConfirmation('shipped', 'Ana', 'sent', false)).toBe('Marked shipped. Ana was mailed that the order is on its way.');
    expect(statusConfirmation('picked_up', 'Ana', 'sent', false)).toBe('Marked picked up. Ana was mailed a thank-you.');
    expect(statusConfirmation('paid', 'Ana', 'none', false)).toBe('Marked paid.');
    expect(statusConfirmation('shipped', 'The buyer', 'no-address', false)).toBe('Marked shipped. The buyer left no e-mail address, so nobody was mailed.');
  });
});

describe('a place', () => {
  it('is a link only when it is one http(s) address', () => {
    expect(placeLink('https://meet.example.com/maya')).toBe('https://meet.example.com/maya');
    expect(placeLink(' http://zoom.example/j/1 ')).toBe('http://zoom.example/j/1');
    expect(placeLink('Studio 3, 12 Alder St')).toBeNull();
    expect(placeLink('javascript://alert(1)')).toBeNull();
    expect(placeLink('https://a.example and more')).toBeNull();
  });

  it('becomes a link in a mail’s html only where the mail says so; other words stay text', () => {
    const { html, text } = renderMail({
      heading: 'Hi',
      paragraphs: ['Place: https://meet.example.com/maya', 'Visitor wrote: https://evil.example/<b>'],
      links: ['https://meet.example.com/maya'],
    });
    expect(html).toContain('Place: <a href="https://meet.example.com/maya" style="color:#2f6b55">https://meet.example.com/maya</a>');
    expect(html).toContain('Visitor wrote: https://evil.example/&lt;b&gt;');
    expect(html).not.toContain('href="https://evil');
    expect(text).toContain('Place: https://meet.example.com/maya');
  });
});
