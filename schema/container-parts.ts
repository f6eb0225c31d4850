import type { EnvDef, LinkDef, PortDef, VolumeDef, VolumesFromDef } from '../src/parts/image';
import {
  envFromInput,
  portFromInput,
  volumeFromInput,
  type EnvInput as EnvInputShape,
  type EnvView,
  type PortInput as PortInputShape,
  type PortView,
  type VolumeInput as VolumeInputShape,
  type VolumeView,
} from '../src/parts/image';
import { camel, TEXT_PARTS, type Camel, type TextPartKey } from '../src/parts/image';
import { builder } from './builder';

/**
 * Port, link, environment and volume shapes shared by template images and app services; they
 * read the camelCase views of src/catalog/template-shape.ts (portView, envView, volumeView).
 */
export const Port = builder.objectRef<PortView>('Port').implement({
  fields: (t) => ({
    hostInterface: t.exposeString('hostInterface', { nullable: true }),
    hostPort: t.expose('hostPort', { type: 'PortValue', nullable: true }),
    containerPort: t.expose('containerPort', { type: 'PortValue' }),
    proto: t.exposeString('proto', { nullable: true }),
  }),
});

export const ImageLink = builder.objectRef<LinkDef>('ImageLink').implement({
  description: 'A link to another image of the same template, by name',
  fields: (t) => ({ service: t.exposeString('service'), alias: t.exposeString('alias') }),
});

export const EnvironmentVariable = builder.objectRef<EnvView>('EnvironmentVariable').implement({
  fields: (t) => ({
    variable: t.exposeString('variable'),
    value: t.exposeString('value'),
    required: t.exposeBoolean('required', { nullable: true }),
  }),
});

export const Volume = builder.objectRef<VolumeView>('Volume').implement({
  fields: (t) => ({
    hostPath: t.exposeString('hostPath', { nullable: true }),
    containerPath: t.exposeString('containerPath'),
  }),
});

export const VolumeFrom = builder.objectRef<VolumesFromDef & { serviceId?: number }>('VolumeFrom').implement({
  fields: (t) => ({
    service: t.exposeString('service'),
    serviceId: t.int({
      nullable: true,
      description: "The service's id (a service's; null for a template image's)",
      resolve: (v) => v.serviceId ?? null,
    }),
  }),
});

export const PortInput = builder.inputType('PortInput', {
  fields: (t) => ({
    hostInterface: t.string(),
    hostPort: t.field({ type: 'PortValue' }),
    containerPort: t.field({ type: 'PortValue' }),
    proto: t.string(),
  }),
});

export const EnvironmentVariableInput = builder.inputType('EnvironmentVariableInput', {
  fields: (t) => ({ variable: t.string({ required: true }), value: t.string(), required: t.boolean() }),
});

export const VolumeInput = builder.inputType('VolumeInput', {
  fields: (t) => ({ hostPath: t.string(), containerPath: t.string() }),
});

/** GraphQL input (camelCase) to the domain's snake_case shapes (template-shape.ts maps each part). */
export const portDefs = (ports: readonly PortInputShape[] | null | undefined): PortDef[] => (ports ?? []).map(portFromInput);
export const volumeDefs = (volumes: readonly VolumeInputShape[] | null | undefined): VolumeDef[] => (volumes ?? []).map(volumeFromInput);
export const envDefs = (env: readonly EnvInputShape[] | null | undefined): EnvDef[] => (env ?? []).map(envFromInput);

type InputFieldBuilder = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

/** The text parts as input fields (camelCase), for the inputs that take these keys. */
export function textPartInputs<K extends TextPartKey>(t: InputFieldBuilder, keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [camel(key), t.string({ description: TEXT_PARTS[key].description })])) as {
    [P in K as Camel<P>]: ReturnType<InputFieldBuilder['string']>;
  };
}

/** An input's text parts, only those given (on update, absent ones stay), under their camelCase names. */
export function givenTextParts<K extends TextPartKey>(input: Partial<Record<Camel<K>, string | null>>, keys: readonly K[]) {
  const parts: Partial<Record<Camel<K>, string | null>> = {};
  for (const key of keys) {
    const value = input[camel(key)];
    if (value !== undefined) parts[camel(key)] = value;
  }
  return parts;
}

/** The same under their file names, as a definition and an override hold them; null is not given. */
export function givenTextPartsByFileName<K extends TextPartKey>(input: Partial<Record<Camel<K>, string | null>>, keys: readonly K[]) {
  const parts: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = input[camel(key)];
    if (value != null) parts[key] = value;
  }
  return parts;
}
