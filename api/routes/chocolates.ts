import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../types.ts';
import { validateJson, validateParams } from '../validation.ts';
import { requireAdmin } from '../middleware/auth.ts';
import { id } from '../schemas/common.ts';
import { centsToDollars, product, type ProductView } from '../schemas/chocolates.ts';
import { deleteProduct, insertProduct, listProducts, updateProduct } from '../../db/queries/products.ts';
import { deleteOrphanImages } from '../../db/queries/images.ts';
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
  .get('/', async (c) => c.json((await listProducts(c.var.services.db)).map(view)))

  .post('/', requireAdmin(), validateJson(product), async (c) => {
    const created = await insertProduct(c.var.services.db, fields(c.req.valid('json')));
    return c.json({ message: 'Product added successfully.', product: view(created) }, 201);
  })

  .put('/:id', requireAdmin(), validateParams(productParams), validateJson(product), async (c) => {
    const { db } = c.var.services;
    const updated = await updateProduct(db, c.req.valid('param').id, fields(c.req.valid('json')));
    if (!updated) return c.json({ message: 'Product not found' }, 404);
    await deleteOrphanImages(db); // the image it showed before may be nobody's now
    return c.json({ message: 'Product updated successfully.', product: view(updated) });
  })

  .delete('/:id', requireAdmin(), validateParams(productParams), async (c) => {
    const { db } = c.var.services;
    const deleted = await deleteProduct(db, c.req.valid('param').id);
    if (!deleted) return c.json({ message: 'Product not found' }, 404);
    await deleteOrphanImages(db);
    return c.json({ message: 'Product deleted successfully.' });
  });
