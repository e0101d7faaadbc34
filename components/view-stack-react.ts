/** Stage one of the view's stack (view-stack.ts): React, evaluated now. */
import 'react';
import 'react/jsx-runtime';
