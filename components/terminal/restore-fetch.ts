/** Puts the global fetch back once Ink has loaded (see yoga-fetch-guard.ts). */
import { restoreFetch } from './yoga-fetch-guard.js';

restoreFetch();
