import { appCategories } from '../src/apps/service-view';
import { CategoryPosition } from './app';
import { builder } from './builder';

const NewCategoryInput = builder.inputType('NewCategoryInput', {
  fields: (t) => ({ appId: t.int({ required: true }), name: t.string({ required: true }), position: t.int() }),
});

const UpdateCategoryInput = builder.inputType('UpdateCategoryInput', {
  fields: (t) => ({ appId: t.int({ required: true }), id: t.int({ required: true }), name: t.string(), position: t.int() }),
});

const CategoryIdInput = builder.inputType('CategoryIdInput', {
  fields: (t) => ({ appId: t.int({ required: true }), id: t.int({ required: true }) }),
});

builder.queryFields((t) => ({
  categories: t.field({
    type: [CategoryPosition],
    authScopes: { read: true },
    description: "An app's categories, in order",
    args: { appId: t.arg.int({ required: true }) },
    resolve: async (_root, { appId }, ctx) => appCategories(await ctx.services.categories.list(appId)),
  }),
  category: t.field({
    type: CategoryPosition,
    authScopes: { read: true },
    args: { appId: t.arg.int({ required: true }), id: t.arg.int({ required: true }) },
    resolve: async (_root, { appId, id }, ctx) => placed(await ctx.services.categories.get(appId, id)),
  }),
}));

builder.mutationFields((t) => ({
  createCategory: t.field({
    type: CategoryPosition,
    errors: {},
    authScopes: { write: true },
    description: 'A new category of the app; last unless a position is given',
    args: { input: t.arg({ type: NewCategoryInput, required: true }) },
    resolve: async (_root, { input }, ctx) => placed(await ctx.services.categories.create(input.appId, input)),
  }),
  updateCategory: t.field({
    type: CategoryPosition,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: UpdateCategoryInput, required: true }) },
    resolve: async (_root, { input }, ctx) => placed(await ctx.services.categories.update(input.appId, input.id, input)),
  }),
  deleteCategory: t.field({
    type: CategoryPosition,
    errors: {},
    authScopes: { write: true },
    description: 'Removes the category; its services stay, outside it',
    args: { input: t.arg({ type: CategoryIdInput, required: true }) },
    resolve: async (_root, { input }, ctx) => placed(await ctx.services.categories.delete(input.appId, input.id)),
  }),
}));

/** Categories are placed by their app: these fields answer the app's placement of each. */
function placed(category: Parameters<typeof appCategories>[0][number]) {
  return appCategories([category])[0];
}
