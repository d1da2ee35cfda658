/**
 * An uploaded photo stored (issue 22): its master and every variant in one transaction, so an
 * image is never half stored. The encoding is done before (upload.ts): the transaction only inserts.
 */
import type { DB } from '../../db/client.ts';
import type { ProcessedImage } from './process.ts';
import { insertImage } from './images.repo.ts';

/** The image's id. */
export const storeImage = (db: DB, image: ProcessedImage) => db.transaction().execute((trx) => insertImage(trx, image));
