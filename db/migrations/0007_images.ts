import { sql, type Kysely } from 'kysely';

/**
 * Uploaded photos go through one pipeline (api/images/): rotated, stripped of metadata, kept at
 * most 2560 px on the long side, with responsive sizes made once at upload. `images.bytes` now
 * holds that largest WebP; `image_variants` the smaller widths in AVIF and WebP. Images from
 * before this migration keep their bytes and have no size columns (null): they show as plain
 * `<img>` until the teacher uploads them again.
 * `gallery_photos` are the slideshows of /yoga and /chocolates, in the teacher's order, each with
 * its alt text (never empty: a photo nobody can describe is refused).
 * Everything lives in the database so every server replica serves the same bytes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').addColumn('width', 'integer').addColumn('height', 'integer').addColumn('placeholder', 'text').execute();

  await db.schema
    .createTable('image_variants')
    .addColumn('image_id', 'text', (c) => c.notNull().references('images.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('avif', 'webp')`))
    .addColumn('width', 'integer', (c) => c.notNull().check(sql`width > 0`))
    .addColumn('height', 'integer', (c) => c.notNull().check(sql`height > 0`))
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('image_variants_pkey', ['image_id', 'format', 'width'])
    .execute();

  await db.schema
    .createTable('gallery_photos')
    .addColumn('id', 'text', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()::text`))
    .addColumn('gallery', 'text', (c) => c.notNull().check(sql`gallery in ('yoga', 'chocolates')`))
    // The photo is the image: deleting the image (never done while a photo shows it) takes the photo.
    .addColumn('image_id', 'text', (c) => c.notNull().unique().references('images.id').onDelete('cascade'))
    .addColumn('alt', 'text', (c) => c.notNull().check(sql`length(btrim(alt)) > 0`))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('gallery_photos_gallery_position').on('gallery_photos').columns(['gallery', 'position']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('gallery_photos').execute();
  await db.schema.dropTable('image_variants').execute();
  await db.schema.alterTable('images').dropColumn('placeholder').dropColumn('height').dropColumn('width').execute();
}
