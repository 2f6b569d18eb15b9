/* libmsprofiler: no code of its own (see src/CMakeLists.txt); ISO C wants a declaration. */
typedef int openacl_msprofiler_has_no_symbols;
