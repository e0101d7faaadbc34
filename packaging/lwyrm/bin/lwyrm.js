#!/usr/bin/env node
// The alias package runs the real one; the version and everything else come from lindwyrm.
import 'lindwyrm/dist/cli.js';
