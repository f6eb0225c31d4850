/**
 * How a search text becomes PostgreSQL full-text queries (README "Search: how templates rank").
 *
 * Words are runs of letters and digits, lower-cased, each once. Every word becomes one tsquery,
 * stemmed with the `english` configuration (so `blogs` finds `blog`, `monitoring` finds
 * `monitor`); the last word also matches as a prefix (`wordp` while typing finds `wordpress`);
 * a category word also matches the products a person means by it (`blog` finds WordPress).
 * English stop words (`on` in "ruby on rails") come out empty and count for nothing.
 */

/**
 * Categories people search by, and the products (words of their names, keywords or images)
 * that belong to them. Kept small and explicit: a word here widens that word's matches only.
 */
export const CATEGORY_WORDS: Readonly<Record<string, readonly string[]>> = {
  blog: ['wordpress', 'ghost', 'blogging'],
  cms: ['wordpress', 'drupal', 'joomla', 'ghost'],
  wiki: ['mediawiki', 'dokuwiki'],
  ci: ['jenkins', 'gitlab', 'drone', 'buildpack', 'buildstep', 'travis', 'teamcity'],
  monitoring: ['grafana', 'prometheus', 'influxdb', 'nagios', 'zabbix', 'graphite', 'kibana'],
  metrics: ['grafana', 'prometheus', 'influxdb', 'graphite', 'statsd'],
  analytics: ['piwik', 'matomo'],
  database: ['mysql', 'postgresql', 'postgres', 'mongodb', 'redis', 'mariadb'],
  db: ['mysql', 'postgresql', 'postgres', 'mongodb', 'mariadb'],
  cache: ['redis', 'memcached'],
  search: ['elasticsearch', 'solr'],
  git: ['gitlab', 'gogs', 'gitea'],
  rss: ['ttrss'],
  proxy: ['haproxy', 'nginx'],
  balancer: ['haproxy'],
  editor: ['stackedit'],
};

export interface SearchWord {
  word: string;
  /** to_tsquery text: only letters, digits, `|` and `:*`, so it is always valid syntax. */
  tsquery: string;
}

export function searchWords(query: string): SearchWord[] {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  return words.map((word, i) => {
    const alternatives = [word, ...(i === words.length - 1 ? [`${word}:*`] : []), ...(CATEGORY_WORDS[word] ?? [])];
    return { word, tsquery: alternatives.join(' | ') };
  });
}
