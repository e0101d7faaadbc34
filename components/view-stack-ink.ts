/** Stage two of the view's stack (view-stack.ts): Ink, its layout engine and its text helpers. */
import './terminal/yoga-fetch-guard.js';
import 'ink';
import './terminal/restore-fetch.js';
