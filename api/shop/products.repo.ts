/** Chocolates. Prices in integer cents. */
import type { DB } from '../../db/client.ts';
import { sql } from 'kysely';

const columns = [
  'id',
  'name',
  'image',
  'description',
  'details',
  'priceCents',
  'inventory',
  'ingredients',
  'allergens',
  'allergenFree',
  'netWeightGrams',
  'dietTags',
] as const;

export interface ProductFields {
  name: string;
  image: string;
  description: string;
  details: string;
  priceCents: number;
  inventory: number;
  /** The label facts (issue 48): '' and null where she has not said. */
  ingredients: string;
  allergens: string[] | null;
  allergenFree: boolean;
  netWeightGrams: number | null;
  dietTags: string[];
}

/** A list of names as a text[] parameter, the same on PGlite and pg. */
const textArray = (list: readonly string[]) => sql<string[]>`${[...list]}::text[]`;

const values = ({ allergens, dietTags, ...rest }: ProductFields) => ({
  ...rest,
  allergens: allergens === null ? null : textArray(allergens),
  dietTags: textArray(dietTags),
});

export async function listProducts(db: DB) {
  return db.selectFrom('products').select(columns).orderBy('name').orderBy('id').execute();
}

export async function findProduct(db: DB, id: string) {
  return db.selectFrom('products').select(columns).where('id', '=', id).executeTakeFirst();
}

/** The label facts of the products an order names (its mails show them under each line); deleted products are absent. */
export async function labelFactsOf(db: DB, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('products').select(['id', 'allergens', 'allergenFree', 'netWeightGrams']).where('id', 'in', ids).execute();
}

export async function insertProduct(db: DB, fields: ProductFields) {
  return db.insertInto('products').values(values(fields)).returning(columns).executeTakeFirstOrThrow();
}

export async function updateProduct(db: DB, id: string, fields: ProductFields) {
  return db
    .updateTable('products')
    .set({ ...values(fields), updatedAt: sql<Date>`now()` })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

/** Order items keep their rows: product_id is set null by the foreign key. */
export async function deleteProduct(db: DB, id: string) {
  return db.deleteFrom('products').where('id', '=', id).returning('id').executeTakeFirst();
}
