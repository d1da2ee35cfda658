/**
 * Chocolates as the public sees them: each product with its photo's sizes when the photo is an
 * upload. One list for GET /api/chocolates and for /chocolates rendered ahead (issue 25: the grid
 * is HTML made with the page, regenerated when she changes a product), and the facts of its
 * structured data (schema.org Product). The page renderer (api/pages/render-context.ts) reads the
 * chocolates here, never the shop's tables.
 */
import type { DB } from '../../db/client.ts';
import { centsToDollars, type ProductView } from '../../contract/chocolates.ts';
import type { ProductFact } from '../../contract/content.ts';
import type { Product } from '../../db/schema.ts';
import { imageIdOf, pictureViews } from '../images/images.repo.ts';
import { listProducts } from './products.repo.ts';

export type ProductRow = Pick<Product, 'id' | 'name' | 'image' | 'description' | 'details' | 'priceCents' | 'inventory'>;

export const productView = (p: ProductRow): ProductView => ({
  _id: p.id,
  name: p.name,
  image: p.image,
  description: p.description,
  details: p.details,
  price: centsToDollars(p.priceCents),
  inventory: p.inventory,
});

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
