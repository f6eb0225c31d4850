import { Category } from './app';
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
    type: [Category],
    authScopes: { read: true },
    description: "An app's categories, in order",
    args: { appId: t.arg.int({ required: true }) },
    resolve: (_root, { appId }, ctx) => ctx.services.categories.list(appId),
  }),
  category: t.field({
    type: Category,
    authScopes: { read: true },
    args: { appId: t.arg.int({ required: true }), id: t.arg.int({ required: true }) },
    resolve: (_root, { appId, id }, ctx) => ctx.services.categories.get(appId, id),
  }),
}));

builder.mutationFields((t) => ({
  createCategory: t.field({
    type: Category,
    errors: {},
    authScopes: { write: true },
    description: 'A new category of the app; last unless a position is given',
    args: { input: t.arg({ type: NewCategoryInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.categories.create(input.appId, input),
  }),
  updateCategory: t.field({
    type: Category,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: UpdateCategoryInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.categories.update(input.appId, input.id, input),
  }),
  deleteCategory: t.field({
    type: Category,
    errors: {},
    authScopes: { write: true },
    description: 'Removes the category; its services stay, outside it',
    args: { input: t.arg({ type: CategoryIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.categories.delete(input.appId, input.id),
  }),
}));
