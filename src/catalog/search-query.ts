// Each word is one stemmed `english` tsquery (stop words count for nothing); the last also matches as a prefix
// while typing, and a category word also matches its products (README "Search: how templates rank").

/** Kept small: an entry widens only that word's matches. */
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
