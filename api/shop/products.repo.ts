/** Chocolates. Prices in integer cents. */
import type { DB } from '../../db/client.ts';
import { sql } from 'kysely';

const columns = ['id', 'name', 'image', 'description', 'details', 'priceCents', 'inventory'] as const;

export interface ProductFields {
  name: string;
  image: string;
  description: string;
  details: string;
  priceCents: number;
  inventory: number;
}

export async function listProducts(db: DB) {
  return db.selectFrom('products').select(columns).orderBy('name').orderBy('id').execute();
}

export async function insertProduct(db: DB, fields: ProductFields) {
  return db.insertInto('products').values(fields).returning(columns).executeTakeFirstOrThrow();
}

export async function updateProduct(db: DB, id: string, fields: ProductFields) {
  return db
    .updateTable('products')
    .set({ ...fields, updatedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

/** Order items keep their rows: product_id is set null by the foreign key. */
export async function deleteProduct(db: DB, id: string) {
  return db.deleteFrom('products').where('id', '=', id).returning('id').executeTakeFirst();
}
