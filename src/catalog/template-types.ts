/** One entry of GET /types. */
export interface TemplateType {
  name: string;
  default?: true;
}

const NAMES = [
  'Wordpress',
  'Tomcat',
  'Rails',
  'NodeJS',
  'MySQL',
  'Magento',
  'LAMP',
  'Java',
  'HuBot',
  'Drupal',
  'Django',
  'Apache',
  'Ubuntu',
  'Alfresco',
  'Joomla',
  'Liferay',
  'Moodle',
  'odoo',
  'phpBB',
  'Redmine',
  'Subversion',
  'SugarCRM',
  'MAMP',
  'MediaWiki',
  'Trac',
  'WAMP',
] as const;

export const DEFAULT_TYPE = 'Default';

/** The 27 template types, in the original's order: `Default` first and marked as the default. */
export const TEMPLATE_TYPES: readonly TemplateType[] = Object.freeze([
  { name: DEFAULT_TYPE, default: true as const },
  ...NAMES.map((name) => ({ name })),
]);

const KNOWN = new Set(TEMPLATE_TYPES.map((t) => t.name.toLowerCase()));

/**
 * The type of a template, image or service. A case-insensitive match of a known type is kept
 * exactly as given (`wordpress` stays `wordpress`, as the original did); anything else, or
 * blank, becomes `Default`.
 */
export function normalizeType(value: unknown): string {
  if (typeof value !== 'string') return DEFAULT_TYPE;
  const given = value.trim();
  return KNOWN.has(given.toLowerCase()) ? given : DEFAULT_TYPE;
}
