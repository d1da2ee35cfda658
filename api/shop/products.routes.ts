import { regenerateAfter } from '../middleware/regenerate-after.ts';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { id } from '../../contract/common.ts';
import { product, type ProductLabelView, type ProductSavedView } from '../../contract/chocolates.ts';
import { deleteProduct, insertProduct, updateProduct } from './products.repo.ts';
import { deleteOrphanImages } from '../images/images.repo.ts';
import { listProductViews, productLabelView, productView as view } from './product-views.ts';

/** Chocolates (SPEC.md sections 2, 3, 7): the public list and the admin's product cards. */

const productParams = z.object({ id });

// The whole card, label facts included (issue 48): what the schema left out is stored as "not said".
const fields = ({ price, ...rest }: z.output<typeof product>) => ({ ...rest, priceCents: price });

export const chocolates = new Hono<AppEnv>()
  .use('*', regenerateAfter('products'))
  // Uploaded photos come with their sizes, so the grid can ask for the one it needs.
  .get('/', async (c) => c.json(await listProductViews(c.var.services.db)))

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

  // Her printable label's facts under her licence, and what it still lacks (issue 48, decision 0056).
  .get('/:id/label', requireAdmin(), validateParams(productParams), async (c) => {
    const label = await productLabelView(c.var.services.db, c.req.valid('param').id);
    if (!label) return c.json({ message: 'Product not found' }, 404);
    return c.json(label satisfies ProductLabelView);
  })

  .delete('/:id', requireAdmin(), validateParams(productParams), async (c) => {
    const { db } = c.var.services;
    const deleted = await deleteProduct(db, c.req.valid('param').id);
    if (!deleted) return c.json({ message: 'Product not found' }, 404);
    await deleteOrphanImages(db);
    return c.json({ message: 'Product deleted successfully.' });
  });
