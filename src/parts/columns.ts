import { p } from '@mikro-orm/core';
import { camel, TEXT_PART_KEYS, SERVICE_TEXT_PART_KEYS, type Camel, type ServiceTextPartKey, type TextPartKey } from './image';

const textColumn = () => p.text().nullable();
type TextColumns<K extends TextPartKey> = { [P in K as Camel<P>]: ReturnType<typeof textColumn> };

function columns<K extends TextPartKey>(keys: readonly K[]): TextColumns<K> {
  return Object.fromEntries(keys.map((key) => [camel(key), textColumn()])) as TextColumns<K>;
}

export const imageTextColumns = (): TextColumns<TextPartKey> => columns(TEXT_PART_KEYS);

export const serviceTextColumns = (): TextColumns<ServiceTextPartKey> => columns(SERVICE_TEXT_PART_KEYS);
