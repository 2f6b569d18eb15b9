// Model dump control (acl_rt.h): aclmdlInitDump, aclmdlSetDump, aclmdlFinalizeDump over
// core/dump_config.h; the model executor writes the dumps (src/model/dump.h).
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "acl/acl.h"
#include "api/guard.h"
#include "core/runtime.h"

using openacl::Errc;
using openacl::fail;
using openacl::Runtime;
using openacl::api::guarded;
using openacl::api::require_initialized;

extern "C" {

aclError aclmdlInitDump() {
  return guarded(__func__, [&] {
    require_initialized();
    Runtime::get().dump().init();
  });
}

aclError aclmdlSetDump(const char *dumpCfgPath) {
  return guarded(__func__, [&] {
    require_initialized();
    if (dumpCfgPath == nullptr) fail(Errc::invalid_argument, "dumpCfgPath is NULL");
    std::ifstream in(dumpCfgPath);
    if (!in)
      fail(Errc::invalid_file,
           std::string("cannot open the dump configuration '") + dumpCfgPath + "'");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_discarded())
      fail(Errc::dump_config, std::string("'") + dumpCfgPath + "' is not valid JSON");
    if (!j.is_object() || !j.contains("dump"))
      fail(Errc::dump_config, std::string("'") + dumpCfgPath + "' has no \"dump\" object");
    Runtime::get().dump().set(openacl::parse_dump_config(j.at("dump")));
  });
}

aclError aclmdlFinalizeDump() {
  return guarded(__func__, [&] {
    require_initialized();
    Runtime::get().dump().finalize();
  });
}

}  // extern "C"
