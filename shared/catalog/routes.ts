import type { RouteDef, ResponseSchemaName } from '../route-types';

export const catalogRoutes = [
  { name: 'get-config', method: 'GET', path: '/api/config', access: 'public', response: 'publicConfig', table: 'none' },
  { name: 'list-services', method: 'GET', path: '/api/services', access: 'public', response: 'services', table: 'read' },
  {
    name: 'get-service',
    method: 'GET',
    path: '/api/services/{slug}',
    access: 'public',
    params: 'slug',
    missing: { status: 404, message: "The service you're looking for could not be found." },
    response: 'service',
    table: 'read',
  },
  // Public and unauthenticated: they read and write the geocode cache and nothing else in the table.
  {
    name: 'search-addresses',
    method: 'GET',
    path: '/api/geocode',
    access: 'public',
    query: 'addressSearch',
    response: 'geocode',
    table: 'readwrite',
  },
  {
    name: 'reverse-geocode',
    method: 'GET',
    path: '/api/geocode/reverse',
    access: 'public',
    query: 'coordinates',
    response: 'geocode',
    table: 'readwrite',
  },

  // Worker compliance documents. A worker reaches only their own; the owner every one.
  {
    name: 'list-document-categories',
    method: 'GET',
    path: '/api/documents/categories',
    access: 'public',
    response: 'documentCategories',
    table: 'none',
  },
] as const satisfies readonly (RouteDef & { response: ResponseSchemaName })[];
