/**
 * Seed data that makes a first start look alive: chocolates, coupons, some weeks of classes
 * and bookable slots. The administrator is taken from the environment on every start.
 */
import type { DB } from '../db/client.ts';
import { deleteAdminsOtherThan, findAdminByEmail, insertAdminIfMissing, setAdminPasswordHash } from './accounts/admins.repo.ts';
import { hashPassword, needsRehash, verifyPassword } from './accounts/password.ts';
import { insertSlots } from './booking/slots.repo.ts';
import { insertEvents } from './classes/events.repo.ts';
import { deleteAllSessions } from './middleware/sessions.repo.ts';
import { insertCouponsIfMissing } from './shop/coupons.repo.ts';
import { insertProduct, type ProductFields } from './shop/products.repo.ts';
import { addDays, weekday, zonedInstant, zonedNow } from './lib/time.ts';

/**
 * Her chocolates, each with the label facts the law asks for (issue 48): ingredients in order of
 * weight with sub-ingredients, the major allergens (coconut is not one since FDA's 2025 guidance)
 * and the net weight, so a fresh site's labels are not all "missing".
 */
export const seedChocolates: ProductFields[] = [
  {
    name: 'Sea Salt Caramel Tin',
    image: '/images/chocolates/sea-salt-caramel.svg',
    description: 'Soft burnt-sugar caramel in a 70% dark shell, finished with flaky Pacific sea salt.',
    details: 'Nine pieces. Dark chocolate 70%, cream, cane sugar, butter, sea salt. Contains milk.',
    priceCents: 1800,
    inventory: 24,
    ingredients: 'Dark chocolate 70% (cocoa mass, cane sugar, cocoa butter), cream (milk), cane sugar, butter (milk), sea salt',
    allergens: ['milk'],
    allergenFree: false,
    netWeightGrams: 105,
    dietTags: [],
  },
  {
    name: 'Lavender Honey Truffles',
    image: '/images/chocolates/lavender-honey.svg',
    description: 'A calm, floral ganache of local wildflower honey and garden lavender, rolled in cocoa.',
    details: 'Nine pieces. Dark chocolate 64%, cream, honey, lavender, cocoa powder. Contains milk.',
    priceCents: 2000,
    inventory: 18,
    ingredients: 'Dark chocolate 64% (cocoa mass, cane sugar, cocoa butter), cream (milk), honey, lavender, cocoa powder',
    allergens: ['milk'],
    allergenFree: false,
    netWeightGrams: 110,
    dietTags: [],
  },
  {
    name: 'Chai Spice Bonbons',
    image: '/images/chocolates/chai-spice.svg',
    description: 'Cardamom, cinnamon, clove and black pepper, steeped warm the way a morning chai is.',
    details: 'Nine pieces. Milk chocolate 45%, cream, spices, black tea. Contains milk.',
    priceCents: 1900,
    inventory: 20,
    ingredients:
      'Milk chocolate 45% (cane sugar, cocoa butter, whole milk powder, cocoa mass), cream (milk), spices (cardamom, cinnamon, clove, black pepper), black tea',
    allergens: ['milk'],
    allergenFree: false,
    netWeightGrams: 99,
    dietTags: [],
  },
  {
    name: 'Raspberry Rose Hearts',
    image: '/images/chocolates/raspberry-rose.svg',
    description: 'Bright raspberry pâte de fruit under a rose-scented white chocolate ganache.',
    details: 'Nine pieces. White and dark chocolate, raspberry, rose water, pectin. Contains milk.',
    priceCents: 2200,
    inventory: 12,
    ingredients:
      'White chocolate (cane sugar, cocoa butter, whole milk powder), raspberries, dark chocolate (cocoa mass, cane sugar, cocoa butter), cane sugar, rose water, pectin',
    allergens: ['milk'],
    allergenFree: false,
    netWeightGrams: 108,
    dietTags: [],
  },
  {
    name: 'Espresso Crunch Bar',
    image: '/images/chocolates/espresso-crunch.svg',
    description: 'Single-origin 72% bar with cacao nibs and a local roaster’s espresso beans.',
    details: 'One 80 g bar. Dark chocolate 72%, cacao nibs, coffee. Vegan.',
    priceCents: 1200,
    inventory: 30,
    ingredients: 'Dark chocolate 72% (cocoa mass, cane sugar, cocoa butter), cacao nibs, coffee',
    allergens: [],
    allergenFree: true,
    netWeightGrams: 80,
    dietTags: ['plant-based', 'dairy-free'],
  },
  {
    name: 'Matcha Coconut Squares',
    image: '/images/chocolates/matcha-coconut.svg',
    description: 'Ceremonial matcha and toasted coconut in a creamy, plant-based white chocolate.',
    details: 'Nine pieces. Cocoa butter, coconut milk, matcha, coconut. Vegan.',
    priceCents: 2100,
    inventory: 0,
    ingredients: 'Cocoa butter, coconut milk, cane sugar, matcha, toasted coconut',
    allergens: [],
    allergenFree: true,
    netWeightGrams: 95,
    dietTags: ['plant-based', 'dairy-free'],
  },
];

export const seedCoupons = [
  { code: 'WELCOME10', percentOff: 10 },
  // SPEC.md section 9: 15 percent off a next order for tagging on social media.
  { code: 'TAGGED15', percentOff: 15 },
];

/** Weekly group classes: [weekday (0 = Sunday), time, title, location]. */
const weeklyClasses: [number, string, string, string][] = [
  [2, '18:00', 'Gentle Flow', 'Community Studio, 12 Alder St'],
  [4, '19:00', 'Restorative Yin', 'Community Studio, 12 Alder St'],
  [6, '09:00', 'Saturday Morning Vinyasa', 'Riverside Park Pavilion'],
];

export interface SeedOptions {
  adminEmail: string;
  adminPassword: string;
  timezone: string;
  /** Seed classes and slots, products and coupons (only on a database's first start). */
  content: boolean;
  now?: Date;
}

/**
 * Makes the administrator what ADMIN_EMAIL and ADMIN_PASSWORD say, on every start. Changing
 * either is how a leaked credential is revoked, so a change ends what the old one opened: a new
 * password ends every admin session; a new e-mail replaces the admin (the old address no longer
 * logs in, and its sessions go with its row). Unchanged credentials keep the sessions.
 */
export async function seedAdmin(db: DB, email: string, password: string): Promise<'created' | 'replaced' | 'updated' | 'kept'> {
  const normalized = email.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    // Admins under any other e-mail were made by an earlier ADMIN_EMAIL (sessions cascade).
    const removed = await deleteAdminsOtherThan(trx, normalized);
    const existing = await findAdminByEmail(trx, normalized);
    if (!existing) {
      // Another replica starting at the same moment may have inserted it: then it is theirs.
      await insertAdminIfMissing(trx, normalized, await hashPassword(password));
      return removed > 0 ? 'replaced' : 'created';
    }
    if (await verifyPassword(password, existing.passwordHash)) {
      // Same password, older hash (scrypt, weaker parameters): upgraded, sessions kept.
      if (needsRehash(existing.passwordHash)) await setAdminPasswordHash(trx, existing.id, await hashPassword(password));
      return 'kept';
    }
    await setAdminPasswordHash(trx, existing.id, await hashPassword(password));
    await deleteAllSessions(trx, 'admin');
    return 'updated';
  });
}

export async function seedContent(db: DB, timezone: string, now = new Date()): Promise<void> {
  const today = zonedNow(timezone, now).date;
  await db.transaction().execute(async (trx) => {
    for (const chocolate of seedChocolates) await insertProduct(trx, chocolate);
    await insertCouponsIfMissing(trx, seedCoupons);

    // Six weeks of weekly classes, plus a monthly workshop.
    const events = [];
    for (let day = 1; day <= 42; day++) {
      const date = addDays(today, day);
      for (const [dow, time, title, location] of weeklyClasses) {
        if (weekday(date) !== dow) continue;
        events.push({
          title,
          date,
          time,
          location,
          startsAt: zonedInstant(date, time, timezone),
          signUpLink: '',
          isExternal: false,
          capacity: 12,
        });
      }
    }
    const workshopDate = addDays(today, 17);
    events.push({
      title: 'Breath & Cacao Workshop',
      date: workshopDate,
      time: '14:00',
      location: 'The Chocolate Kitchen, 5 Market Lane',
      startsAt: zonedInstant(workshopDate, '14:00', timezone),
      signUpLink: '',
      isExternal: false,
      capacity: 16,
    });
    await insertEvents(trx, events);

    // Three weeks of weekday slots for one-to-one sessions.
    const slots = [];
    for (let day = 1; day <= 21; day++) {
      const date = addDays(today, day);
      const dow = weekday(date);
      if (dow === 0 || dow === 6) continue;
      for (const time of ['10:00', '13:00', '16:30']) {
        slots.push({ date, time, startsAt: zonedInstant(date, time, timezone), place: '' });
      }
    }
    await insertSlots(trx, slots);
  });
}

export async function seed(db: DB, options: SeedOptions) {
  const admin = await seedAdmin(db, options.adminEmail, options.adminPassword);
  if (options.content) await seedContent(db, options.timezone, options.now);
  return { admin };
}
