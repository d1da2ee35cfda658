/**
 * The build's defaults: the YAML files under site/content/ (one per page, plus site.yaml for
 * the navigation and footer), checked against the same schemas the server validates the
 * teacher's edits with (contract/content.ts). The server seeds a fresh database from these
 * files and renders the public pages from the database (decision 0020); a page built here
 * shows only until the server has rendered its own.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { builtinPageSchemas, type BuiltinSlug } from '../contract/content';

const one = (name: BuiltinSlug) => defineCollection({ loader: glob({ pattern: `${name}.yaml`, base: './site/content' }), schema: builtinPageSchemas[name] });

export const collections = {
  site: one('site'),
  home: one('home'),
  yoga: one('yoga'),
  about: one('about'),
  aboutwebsite: one('aboutwebsite'),
  chocolates: one('chocolates'),
  contact: one('contact'),
  waiver: one('waiver'),
};
