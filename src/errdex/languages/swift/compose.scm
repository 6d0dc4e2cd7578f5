; errdex — what Swift composition reads: types, functions, enum cases and lets.
(class_declaration) @type
(function_declaration) @function
(enum_entry) @entry
(property_declaration) @property
