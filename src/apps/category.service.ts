import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError } from '../errors';
import { App, AppCategory, Service } from './app.entity';

export interface CategoryInput {
  name?: string | null;
  position?: number | null;
}

/** The panels an app's services are grouped in. */
export class CategoryService {
  constructor(private readonly em: EntityManager) {}

  async list(appId: number): Promise<AppCategory[]> {
    await this.app(appId);
    return this.em.find(AppCategory, { app: appId }, { orderBy: { position: 'asc', id: 'asc' } });
  }

  async get(appId: number, id: number): Promise<AppCategory> {
    const category = await this.em.findOne(AppCategory, { id, app: appId });
    if (!category) {
      await this.app(appId);
      throw NotFoundError.of('category', id);
    }
    return category;
  }

  async create(appId: number, input: CategoryInput): Promise<AppCategory> {
    const app = await this.app(appId);
    const name = checkedName(input.name);
    const position = checkedPosition(input.position) ?? (await this.em.count(AppCategory, { app: appId }));
    const category = this.em.create(AppCategory, { app, name, position });
    await this.em.flush();
    return category;
  }

  async update(appId: number, id: number, input: CategoryInput): Promise<AppCategory> {
    const category = await this.get(appId, id);
    if (input.name !== undefined && input.name !== null) category.name = checkedName(input.name);
    const position = checkedPosition(input.position);
    if (position !== null) category.position = position;
    await this.em.flush();
    return category;
  }

  /** The services stay. */
  async delete(appId: number, id: number): Promise<AppCategory> {
    const category = await this.get(appId, id);
    const members = await this.em.find(Service, { app: appId });
    for (const service of members) {
      const kept = service.categories.filter((ref) => ref.category_id !== id);
      if (kept.length !== service.categories.length) service.categories = kept;
    }
    this.em.remove(category);
    await this.em.flush();
    return category;
  }

  private async app(id: number): Promise<App> {
    const app = await this.em.findOne(App, { id });
    if (!app) throw NotFoundError.of('app', id);
    return app;
  }
}

function checkedName(raw: string | null | undefined): string {
  const name = raw?.trim();
  if (!name) throw new ValidationError("name can't be blank", ['name']);
  return name;
}

function checkedPosition(raw: number | null | undefined): number | null {
  if (raw === null || raw === undefined) return null;
  if (!Number.isInteger(raw) || raw < 0) throw new ValidationError('position must be a whole number, 0 or more', ['position']);
  return raw;
}
