/**
 * The built-in tools, in the order the model is offered them (the order is part of the prompt
 * prefix, which must stay byte-identical). A new built-in tool is one file plus its line here.
 */
import { bashTool } from './bash.js';
import { deleteFileTool } from './delete-file.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { readOffloadedTool } from './read-offloaded.js';
import { recallTool } from './recall.js';
import type { ToolDefinition } from './types.js';
import { viewImageTool } from './view-image.js';
import { writeFileTool } from './write-file.js';

export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  readFileTool,
  writeFileTool,
  editFileTool,
  listDirTool,
  globTool,
  grepTool,
  deleteFileTool,
  bashTool,
  readOffloadedTool,
  recallTool,
  viewImageTool,
];
