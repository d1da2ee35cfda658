import { regenerateAfter } from '../pages/regenerate-after.ts';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { id } from '../../contract/common.ts';
import { centsToDollars, product, type ProductSavedView, type ProductView } from '../../contract/chocolates.ts';
import { deleteProduct, insertProduct, listProducts, updateProduct } from './products.repo.ts';
import { deleteOrphanImages, imageIdOf, pictureViews } from '../images/images.repo.ts';
import type { Product } from '../../db/schema.ts';

/** Chocolates (SPEC.md sections 2, 3, 7): the public list and the admin's product cards. */

type ProductRow = Pick<Product, 'id' | 'name' | 'image' | 'description' | 'details' | 'priceCents' | 'inventory'>;

const view = (p: ProductRow): ProductView => ({
  _id: p.id,
  name: p.name,
  image: p.image,
  description: p.description,
  details: p.details,
  price: centsToDollars(p.priceCents),
  inventory: p.inventory,
});

const productParams = z.object({ id });

const fields = ({ price, ...rest }: z.output<typeof product>) => ({ ...rest, priceCents: price });

export const chocolates = new Hono<AppEnv>()
  .use('*', regenerateAfter('products'))
  .get('/', async (c) => {
    const { db } = c.var.services;
    const rows = await listProducts(db);
    // Uploaded photos come with their sizes, so the grid can ask for the one it needs.
    const pictures = await pictureViews(
      db,
      rows.map((p) => imageIdOf(p.image)).filter((i) => i !== null),
    );
    return c.json(
      rows.map((p) => {
        const picture = pictures.get(imageIdOf(p.image) ?? '');
        return picture ? { ...view(p), picture } : view(p);
      }),
    );
  })

  .post('/', requireAdmin(), validateJson(product), async (c) => {
    const created = await insertProduct(c.var.services.db, fields(c.req.valid('json')));
    return c.json({ message: 'Product added successfully.', product: view(created) } satisfies ProductSavedView, 201);
  })

  .put('/:id', requireAdmin(), validateParams(productParams), validateJson(product), async (c) => {
    const { db } = c.var.services;
    const updated = await updateProduct(db, c.req.valid('param').id, fields(c.req.valid('json')));
    if (!updated) return c.json({ message: 'Product not found' }, 404);
    await deleteOrphanImages(db); // the image it showed before may be nobody's now
    return c.json({ message: 'Product updated successfully.', product: view(updated) } satisfies ProductSavedView);
  })

  .delete('/:id', requireAdmin(), validateParams(productParams), async (c) => {
    const { db } = c.var.services;
    const deleted = await deleteProduct(db, c.req.valid('param').id);
    if (!deleted) return c.json({ message: 'Product not found' }, 404);
    await deleteOrphanImages(db);
    return c.json({ message: 'Product deleted successfully.' });
  });
