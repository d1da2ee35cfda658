import { sql, type Kysely } from 'kysely';

/**
 * Issue 48 (decision 0056): each chocolate carries what its label must (OAR 603-025-0325, FALCPA).
 *
 * - ingredients: in order of weight, sub-ingredients in parentheses; '' until she writes them.
 * - allergens: the major food allergens it contains, lower case, tree nuts and fish by kind
 *   (contract/food.ts); null until she says, because an empty field is not "none".
 * - allergen_free: she said it contains none (allergens is then the empty list).
 * - net_weight_grams: null until she says; shown in ounces and grams.
 * - diet_tags: optional ("plant-based").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('ingredients', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('allergens', sql`text[]`)
    .addColumn('allergen_free', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('net_weight_grams', 'double precision', (c) => c.check(sql`net_weight_grams > 0`))
    .addColumn('diet_tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .execute();
  await sql`alter table products add constraint products_allergen_free_is_empty check (not allergen_free or allergens = '{}'::text[])`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table products drop constraint products_allergen_free_is_empty`.execute(db);
  await db.schema
    .alterTable('products')
    .dropColumn('ingredients')
    .dropColumn('allergens')
    .dropColumn('allergen_free')
    .dropColumn('net_weight_grams')
    .dropColumn('diet_tags')
    .execute();
}
