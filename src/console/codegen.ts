import type { CodegenConfig } from '@graphql-codegen/cli';

// `npm run console:codegen`: types every operation the console writes with `graphql(...)` from
// the committed schema (schema/schema.graphql), into src/gql/ (CODEGEN_OUT elsewhere: the test
// that checks the committed output is current).
const config: CodegenConfig = {
  schema: '../../schema/schema.graphql',
  documents: ['src/**/*.tsx', 'src/**/*.ts', '!src/gql/**'],
  ignoreNoDocuments: false,
  generates: {
    [process.env.CODEGEN_OUT ?? 'src/gql/']: {
      preset: 'client',
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', JSON: 'unknown', PortValue: 'string | number' },
      },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;
