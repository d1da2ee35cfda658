import { sql, type Kysely } from 'kysely';

/**
 * Issue 25: portrait and square photos are also kept as a landscape cut (4:3) for the landscape
 * boxes that show them (cards, slides, the cart), cut around a focal point she can set.
 * `images.focus_x/focus_y`: her point as fractions of the width and height (null: not set, the
 * cut follows libvips' "attention"). `image_variants.crop`: '' for the whole photo's sizes, the
 * cut's key (`c50-30`, `ca`) for the cut's; it is part of the key, so one image has both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('images')
    .addColumn('focus_x', 'real', (c) => c.check(sql`focus_x between 0 and 1`))
    .addColumn('focus_y', 'real', (c) => c.check(sql`focus_y between 0 and 1`))
    .execute();
  await db.schema
    .alterTable('image_variants')
    .addColumn('crop', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('image_variants').dropConstraint('image_variants_pkey').execute();
  await db.schema.alterTable('image_variants').addPrimaryKeyConstraint('image_variants_pkey', ['image_id', 'crop', 'format', 'width']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('image_variants').where('crop', '!=', '').execute();
  await db.schema.alterTable('image_variants').dropConstraint('image_variants_pkey').execute();
  await db.schema.alterTable('image_variants').addPrimaryKeyConstraint('image_variants_pkey', ['image_id', 'format', 'width']).execute();
  await db.schema.alterTable('image_variants').dropColumn('crop').execute();
  await db.schema.alterTable('images').dropColumn('focus_y').dropColumn('focus_x').execute();
}
