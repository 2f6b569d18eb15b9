// openaclConvertModel (include/openacl/openacl_model.h): what the `atc` command runs.
#include <cerrno>
#include <cstring>
#include <fstream>

#include "api/guard.h"
#include "model/convert.h"
#include "openacl/openacl_model.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;

extern "C" ACL_FUNC_VISIBILITY aclError openaclConvertModel(const void *onnx, size_t onnxSize,
                                                            const char *const *optionNames,
                                                            const char *const *optionValues,
                                                            size_t optionCount,
                                                            const char *omPath) {
  return guarded(__func__, [&] {
    if (onnx == nullptr || onnxSize == 0)
      fail(Errc::invalid_argument, "onnx is NULL or onnxSize is 0");
    if (omPath == nullptr) fail(Errc::invalid_argument, "omPath is NULL");
    if (optionCount && (optionNames == nullptr || optionValues == nullptr))
      fail(Errc::invalid_argument, "optionNames or optionValues is NULL");
    openacl::model::ConvertOptions options;
    for (size_t i = 0; i < optionCount; ++i) {
      if (optionNames[i] == nullptr || optionValues[i] == nullptr)
        fail(Errc::invalid_argument, "option " + std::to_string(i) + " has a NULL name or value");
      options[optionNames[i]] = optionValues[i];
    }
    const auto om = openacl::model::convert(onnx, onnxSize, options);
    std::ofstream f(omPath, std::ios::binary | std::ios::trunc);
    if (!f ||
        !f.write(reinterpret_cast<const char *>(om.data()),
                 static_cast<std::streamsize>(om.size())) ||
        !f.flush())
      fail(Errc::write_file, std::string("cannot write '") + omPath + "': " + std::strerror(errno));
  });
}
