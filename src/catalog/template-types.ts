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

/** In the original's order. */
export const TEMPLATE_TYPES: readonly TemplateType[] = Object.freeze([
  { name: DEFAULT_TYPE, default: true as const },
  ...NAMES.map((name) => ({ name })),
]);

const KNOWN = new Set(TEMPLATE_TYPES.map((t) => t.name.toLowerCase()));

/** A known type matched case-insensitively is kept as given, as the original did; anything else is `Default`. */
export function normalizeType(value: unknown): string {
  if (typeof value !== 'string') return DEFAULT_TYPE;
  const given = value.trim();
  return KNOWN.has(given.toLowerCase()) ? given : DEFAULT_TYPE;
}
