/**
 * Her slideshows' photos (issue 22), the changes that write more than one row: each in one
 * transaction, so a photo is never half added, half reordered or half deleted. The image's
 * encoding is done before (api/images/upload.ts): the transaction only inserts.
 */
import type { DB } from '../../db/client.ts';
import { insertImage } from '../images/images.repo.ts';
import { deletePhoto, insertPhoto, reorder } from './galleries.repo.ts';

type Gallery = Parameters<typeof insertPhoto>[1];
type ReceivedImage = Parameters<typeof insertImage>[1];

/** The received image and its photo in the slideshow, with its alt text. */
export const addPhoto = (db: DB, gallery: Gallery, image: ReceivedImage, alt: string) =>
  db.transaction().execute(async (trx) => insertPhoto(trx, gallery, await insertImage(trx, image), alt));

/** The slideshow in the order `ids` gives; false when they are not its photos, each once. */
export const reorderPhotos = (db: DB, gallery: Gallery, ids: readonly string[]) => db.transaction().execute((trx) => reorder(trx, gallery, ids));

/** The photo out of the slideshow; false when it was not there. */
export const removePhoto = (db: DB, gallery: Gallery, id: string) => db.transaction().execute((trx) => deletePhoto(trx, gallery, id));
