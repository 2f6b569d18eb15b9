// The operator compiler's options (acl_op_compiler.h: aclSetCompileopt / aclGetCompileopt).
// Built-in ops need no compilation, so nothing here changes how ops run: the options are kept
// per process so that a program reads back what it set, as with CANN.
// Thread safety: both functions may be called from any thread at any time.
#pragma once

#include <string>

namespace openacl {

void set_compile_option(int option, std::string value);
// The value last set for option, "" when it was never set.
std::string compile_option(int option);

}  // namespace openacl
