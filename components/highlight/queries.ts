/**
 * Highlight queries for the tree-sitter grammars @vscode/tree-sitter-wasm ships (it ships the
 * grammars, not their highlights.scm). Written for this renderer: keywords, literals and comments
 * come from the generic leaf rules in tree-sitter-highlight.ts, so these name only what needs the
 * tree — functions (defined and called), types, constants, decorators, tags. Capture names are
 * SyntaxKind values. Each pattern compiles on its own: one a grammar version does not know is
 * dropped, the others still work. No predicates (#match?): they are checked in JavaScript for every
 * capture, the slowest part of a query; names are classed by their spelling in NAME_RULES instead.
 */

/** How plain identifiers are classed by spelling: ALL_CAPS as constants, Capitalised as types, some words as keywords. */
export interface NameRules {
  readonly constants?: boolean;
  readonly types?: boolean;
  readonly keywords?: readonly string[];
}

export const NAME_RULES: Readonly<Record<string, NameRules>> = {
  python: { constants: true, types: true, keywords: ['self', 'cls'] },
  go: { keywords: ['iota'] },
  rust: { constants: true, types: true },
  java: { constants: true },
  'c-sharp': { types: true },
  cpp: { constants: true },
};

export const HIGHLIGHT_QUERIES: Readonly<Record<string, readonly string[]>> = {
  python: [
    '(function_definition name: (identifier) @function)',
    '(class_definition name: (identifier) @type)',
    '(call function: (identifier) @function)',
    '(call function: (attribute attribute: (identifier) @function))',
    '(decorator) @attribute',
    '(type (identifier) @type)',
  ],
  go: [
    '(function_declaration name: (identifier) @function)',
    '(method_declaration name: (field_identifier) @function)',
    '(call_expression function: (identifier) @function)',
    '(call_expression function: (selector_expression field: (field_identifier) @function))',
    '(type_identifier) @type',
    '(package_identifier) @type',
  ],
  rust: [
    '(function_item name: (identifier) @function)',
    '(function_signature_item name: (identifier) @function)',
    '(call_expression function: (identifier) @function)',
    '(call_expression function: (field_expression field: (field_identifier) @function))',
    '(call_expression function: (scoped_identifier name: (identifier) @function))',
    '(macro_invocation macro: (identifier) @function)',
    '(type_identifier) @type',
    '(primitive_type) @type',
    '(attribute_item) @attribute',
    '(inner_attribute_item) @attribute',
    '(self) @keyword',
    '(lifetime) @attribute',
  ],
  java: [
    '(method_declaration name: (identifier) @function)',
    '(constructor_declaration name: (identifier) @function)',
    '(method_invocation name: (identifier) @function)',
    '(type_identifier) @type',
    '(integral_type) @type',
    '(floating_point_type) @type',
    '(boolean_type) @type',
    '(void_type) @type',
    '(marker_annotation) @attribute',
    '(annotation) @attribute',
    '(this) @keyword',
  ],
  'c-sharp': [
    '(method_declaration name: (identifier) @function)',
    '(local_function_statement name: (identifier) @function)',
    '(constructor_declaration name: (identifier) @type)',
    '(invocation_expression function: (identifier) @function)',
    '(invocation_expression function: (member_access_expression name: (identifier) @function))',
    '(class_declaration name: (identifier) @type)',
    '(interface_declaration name: (identifier) @type)',
    '(struct_declaration name: (identifier) @type)',
    '(record_declaration name: (identifier) @type)',
    '(enum_declaration name: (identifier) @type)',
    '(predefined_type) @type',
    '(generic_name (identifier) @type)',
    '(attribute) @attribute',
  ],
  cpp: [
    '(function_declarator declarator: (identifier) @function)',
    '(function_declarator declarator: (field_identifier) @function)',
    '(function_declarator declarator: (qualified_identifier name: (identifier) @function))',
    '(call_expression function: (identifier) @function)',
    '(call_expression function: (field_expression field: (field_identifier) @function))',
    '(call_expression function: (qualified_identifier name: (identifier) @function))',
    '(type_identifier) @type',
    '(primitive_type) @type',
    '(sized_type_specifier) @type',
    '(namespace_identifier) @type',
    '(preproc_include) @keyword',
    '(system_lib_string) @string',
    '(this) @keyword',
  ],
  ruby: [
    '(method name: (identifier) @function)',
    '(singleton_method name: (identifier) @function)',
    '(call method: (identifier) @function)',
    '(constant) @type',
    '(simple_symbol) @constant',
    '(hash_key_symbol) @constant',
    '(instance_variable) @attribute',
    '(class_variable) @attribute',
    '(global_variable) @attribute',
    '(self) @keyword',
  ],
  php: [
    '(function_definition name: (name) @function)',
    '(method_declaration name: (name) @function)',
    '(function_call_expression function: (name) @function)',
    '(member_call_expression name: (name) @function)',
    '(scoped_call_expression name: (name) @function)',
    '(class_declaration name: (name) @type)',
    '(named_type (name) @type)',
    '(primitive_type) @type',
    '(variable_name) @attribute',
    '(php_tag) @tag',
    '(php_end_tag) @tag',
  ],
  bash: [
    '(function_definition name: (word) @function)',
    '(command_name (word) @function)',
    '(variable_name) @attribute',
    '(special_variable_name) @attribute',
    '(expansion) @attribute',
    '(simple_expansion) @attribute',
    '(file_descriptor) @number',
  ],
};
