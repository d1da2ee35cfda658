/**
 * Chocolates as the public sees them: each product with its photo's sizes when the photo is an
 * upload. One list for GET /api/chocolates and for /chocolates rendered ahead (issue 25: the grid
 * is HTML made with the page, regenerated when she changes a product), and the facts of its
 * structured data (schema.org Product). The page renderer (api/pages/render-context.ts) reads the
 * chocolates here, never the shop's tables.
 */
import type { DB } from '../../db/client.ts';
import { centsToDollars, missingForLabel, type ProductLabelView, type ProductView } from '../../contract/chocolates.ts';
import type { ProductFact } from '../../contract/content.ts';
import { COTTAGE_STATEMENT, labelLines, type Allergen, type DietTag } from '../../contract/food.ts';
import type { Product } from '../../db/schema.ts';
import { imageIdOf, pictureViews } from '../images/images.repo.ts';
import { readSettings } from '../settings/settings.repo.ts';
import { findProduct, labelFactsOf, listProducts } from './products.repo.ts';

export type ProductRow = Pick<
  Product,
  | 'id'
  | 'name'
  | 'image'
  | 'description'
  | 'details'
  | 'priceCents'
  | 'inventory'
  | 'ingredients'
  | 'allergens'
  | 'allergenFree'
  | 'netWeightGrams'
  | 'dietTags'
>;

export const productView = (p: ProductRow): ProductView => ({
  _id: p.id,
  name: p.name,
  image: p.image,
  description: p.description,
  details: p.details,
  price: centsToDollars(p.priceCents),
  inventory: p.inventory,
  // Label facts (issue 48): the columns hold only what the contract's schema let in.
  ingredients: p.ingredients,
  allergens: p.allergens as Allergen[] | null,
  allergenFree: p.allergenFree,
  netWeightGrams: p.netWeightGrams,
  dietTags: p.dietTags as DietTag[],
});

/**
 * What her printed label carries for one product under her licence as it is now (Settings), and
 * what it still lacks; null for no such product.
 */
export async function productLabelView(db: DB, id: string): Promise<ProductLabelView | null> {
  const [row, settings] = await Promise.all([findProduct(db, id), readSettings(db)]);
  if (!row) return null;
  const product = productView(row);
  const licence = settings.foodLicence;
  return { product, licence, statement: licence.mode === 'cottage' ? COTTAGE_STATEMENT : null, missing: missingForLabel(product, licence) };
}

/**
 * An order's lines with each product's allergen line and net weight as it reads now (the order's
 * mails show them under the line); a line whose product was deleted since has none.
 */
export async function withLabelLines<L extends { productId: string | null }>(db: DB, lines: readonly L[]): Promise<(L & { label: string[] })[]> {
  const facts = new Map((await labelFactsOf(db, [...new Set(lines.flatMap((l) => (l.productId ? [l.productId] : [])))])).map((f) => [f.id, f]));
  return lines.map((l) => {
    const f = l.productId ? facts.get(l.productId) : undefined;
    return { ...l, label: f ? labelLines(f) : [] };
  });
}

/** Every product, with its photo's sizes so a page asks for the one it shows. Three queries. */
export async function listProductViews(db: DB): Promise<ProductView[]> {
  const rows = await listProducts(db);
  const pictures = await pictureViews(
    db,
    rows.map((p) => imageIdOf(p.image)).filter((i) => i !== null),
  );
  return rows.map((p) => {
    const picture = pictures.get(imageIdOf(p.image) ?? '');
    return picture ? { ...productView(p), picture } : productView(p);
  });
}

/** Every product as /chocolates' structured data names it (schema.org Product), by name. */
export async function productFacts(db: DB): Promise<ProductFact[]> {
  const rows = await listProducts(db);
  return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, priceCents: r.priceCents, inStock: r.inventory > 0, image: r.image || null }));
}
