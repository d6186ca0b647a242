import type { OperationDoc } from './operation-doc.js';
import { serviceOperations } from './service-operations.js';

/** Every operation of the API, in the order the reference shows them. */
export const apiOperations: OperationDoc[] = [...serviceOperations];
