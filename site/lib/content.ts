import { getEntry, type CollectionEntry, type CollectionKey } from 'astro:content';

/** The data of a one-file collection (site/content/<name>.yaml), typed by its schema. */
export async function copy<K extends CollectionKey>(name: K): Promise<CollectionEntry<K>['data']> {
  const entry = (await getEntry(name, name as never)) as CollectionEntry<K> | undefined;
  if (!entry) throw new Error(`site/content/${name}.yaml is missing`);
  return entry.data;
}
