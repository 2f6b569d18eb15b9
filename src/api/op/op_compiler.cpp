// The operator-compilation calls (acl_op_compiler.h), built into libacl_op_compiler as CANN
// ships them, over libascendcl. Built-in ops need no compilation: aclopCompile validates and
// prepares the op, the CompileAndExecute calls run it like aclopExecute, and the options are
// stored and read back.
#include <cstring>
#include <string>

#include "acl/acl_op_compiler.h"
#include "api/guard.h"
#include "api/op/op_exec.h"
#include "core/compile_options.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;

extern "C" {

aclError aclopCompile(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                      int numOutputs, const aclTensorDesc *const outputDesc[],
                      const aclopAttr *attr, aclopEngineType engineType,
                      aclopCompileType compileFlag, const char *opPath) {
  return guarded(__func__, [&] {
    openacl::api::prepare_op(opType, numInputs, inputDesc, numOutputs, outputDesc, attr);
  });
}

aclError aclopCompileAndExecute(const char *opType, int numInputs,
                                const aclTensorDesc *const inputDesc[],
                                const aclDataBuffer *const inputs[], int numOutputs,
                                const aclTensorDesc *const outputDesc[],
                                aclDataBuffer *const outputs[], const aclopAttr *attr,
                                aclopEngineType engineType, aclopCompileType compileFlag,
                                const char *opPath, aclrtStream stream) {
  return guarded(__func__, [&] {
    openacl::api::execute_op(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs,
                             attr, stream);
  });
}

aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                  aclDataBuffer *inputs[], int numOutputs,
                                  aclTensorDesc *outputDesc[], aclDataBuffer *outputs[],
                                  aclopAttr *attr, aclopEngineType engineType,
                                  aclopCompileType compileFlag, const char *opPath,
                                  aclrtStream stream) {
  return guarded(__func__, [&] {
    openacl::api::execute_op(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs,
                             attr, stream);
  });
}

aclError aclSetCompileopt(aclCompileOpt opt, const char *value) {
  return guarded(__func__, [&] {
    if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
    const int64_t o = openacl::api::enum_value(opt);
    if (o < ACL_PRECISION_MODE || o > ACL_OP_DEBUG_OPTION)
      fail(Errc::invalid_argument, "opt " + std::to_string(o) + " is not an aclCompileOpt");
    openacl::set_compile_option(static_cast<int>(o), value);
  });
}

size_t aclGetCompileoptSize(aclCompileOpt opt) {
  // Room for the value and its terminator; an unset option reads as "".
  return openacl::compile_option(static_cast<int>(openacl::api::enum_value(opt))).size() + 1;
}

aclError aclGetCompileopt(aclCompileOpt opt, char *value, size_t length) {
  return guarded(__func__, [&] {
    if (value == nullptr) fail(Errc::invalid_argument, "value is NULL");
    const std::string v = openacl::compile_option(static_cast<int>(openacl::api::enum_value(opt)));
    if (length < v.size() + 1)
      fail(Errc::invalid_argument, "length " + std::to_string(length) +
                                       " is too small for the value (" +
                                       std::to_string(v.size() + 1) + " bytes)");
    std::memcpy(value, v.c_str(), v.size() + 1);
  });
}

aclError aclopSetCompileFlag(aclOpCompileFlag flag) {
  return guarded(__func__, [&] {
    const int64_t f = openacl::api::enum_value(flag);
    if (f != ACL_OP_COMPILE_DEFAULT && f != ACL_OP_COMPILE_FUZZ)
      fail(Errc::invalid_argument, "flag " + std::to_string(f) + " is not an aclOpCompileFlag");
  });
}

}  // extern "C"
