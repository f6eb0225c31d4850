import type { EnvDef, LinkDef, PortDef, VolumeDef, VolumesFromDef } from '../src/catalog/template-definition';
import { builder } from './builder';

/** Port, link, environment and volume shapes shared by template images and app services. */
export const Port = builder.objectRef<PortDef>('Port').implement({
  fields: (t) => ({
    hostInterface: t.string({ nullable: true, resolve: (p) => p.host_interface ?? null }),
    hostPort: t.field({ type: 'PortValue', nullable: true, resolve: (p) => p.host_port ?? null }),
    containerPort: t.field({ type: 'PortValue', resolve: (p) => p.container_port }),
    proto: t.string({ nullable: true, resolve: (p) => p.proto ?? null }),
  }),
});

export const ImageLink = builder.objectRef<LinkDef>('ImageLink').implement({
  description: 'A link to another image of the same template, by name',
  fields: (t) => ({ service: t.exposeString('service'), alias: t.exposeString('alias') }),
});

export const EnvironmentVariable = builder.objectRef<EnvDef>('EnvironmentVariable').implement({
  fields: (t) => ({
    variable: t.exposeString('variable'),
    value: t.string({ resolve: (e) => e.value ?? '' }),
    required: t.boolean({ nullable: true, resolve: (e) => e.required ?? null }),
  }),
});

export const Volume = builder.objectRef<VolumeDef>('Volume').implement({
  fields: (t) => ({
    hostPath: t.string({ nullable: true, resolve: (v) => v.host_path ?? null }),
    containerPath: t.exposeString('container_path'),
  }),
});

export const VolumeFrom = builder.objectRef<VolumesFromDef>('VolumeFrom').implement({
  fields: (t) => ({ service: t.exposeString('service') }),
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

/** GraphQL input (camelCase) to the domain's snake_case shapes. */
export function portDefs(ports: readonly PortInputShape[] | null | undefined): PortDef[] {
  return (ports ?? []).map((p) => ({
    host_interface: p.hostInterface ?? null,
    host_port: p.hostPort ?? null,
    container_port: p.containerPort ?? '',
    proto: p.proto ? p.proto.toUpperCase() : null,
  }));
}

export function volumeDefs(volumes: readonly { hostPath?: string | null; containerPath?: string | null }[] | null | undefined): VolumeDef[] {
  return (volumes ?? []).map((v) => ({ host_path: v.hostPath ?? null, container_path: v.containerPath ?? '' }));
}

export function envDefs(env: readonly { variable: string; value?: string | null; required?: boolean | null }[] | null | undefined): EnvDef[] {
  return (env ?? []).map((e) => ({ variable: e.variable, value: e.value ?? '', ...(e.required != null ? { required: e.required } : {}) }));
}

interface PortInputShape {
  hostInterface?: string | null;
  hostPort?: number | string | null;
  containerPort?: number | string | null;
  proto?: string | null;
}
