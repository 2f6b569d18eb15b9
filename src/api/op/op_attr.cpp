// aclopCreateAttr / aclopDestroyAttr / aclopSetAttr*: values are copied into the attr.
#include "api/op/op_attr.h"

#include <new>

#include "api/guard.h"

using openacl::Errc;
using openacl::fail;
using openacl::ops::AttrValue;
using openacl::ops::DType;

namespace {

template <class F>
aclError set_attr(const char *api, aclopAttr *attr, const char *name, F &&make_value) {
  return openacl::api::guarded(api, [&] {
    if (attr == nullptr) fail(Errc::invalid_argument, "attr is NULL");
    if (name == nullptr) fail(Errc::invalid_argument, "attrName is NULL");
    attr->attrs[name] = make_value();
  });
}

template <class T, class S>
std::vector<T> list_of(int n, const S *values) {
  if (n < 0) fail(Errc::invalid_argument, "numValues " + std::to_string(n) + " is negative");
  if (n > 0 && values == nullptr)
    fail(Errc::invalid_argument, "values is NULL while numValues is " + std::to_string(n));
  std::vector<T> out;
  for (int i = 0; i < n; ++i) out.push_back(static_cast<T>(values[i]));
  return out;
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr() { return new (std::nothrow) aclopAttr; }

ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr) { delete attr; }

ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName,
                                              uint8_t attrValue) {
  return set_attr("aclopSetAttrBool", attr, attrName, [&] { return AttrValue(attrValue != 0); });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName,
                                             int64_t attrValue) {
  return set_attr("aclopSetAttrInt", attr, attrName, [&] { return AttrValue(attrValue); });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName,
                                               float attrValue) {
  return set_attr("aclopSetAttrFloat", attr, attrName, [&] { return AttrValue(attrValue); });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName,
                                                const char *attrValue) {
  return set_attr("aclopSetAttrString", attr, attrName, [&] {
    if (attrValue == nullptr) fail(Errc::invalid_argument, "attrValue is NULL");
    return AttrValue(std::string(attrValue));
  });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName,
                                                  aclDataType attrValue) {
  return set_attr("aclopSetAttrDataType", attr, attrName,
                  [&] { return AttrValue(static_cast<DType>(attrValue)); });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(aclopAttr *attr, const char *attrName,
                                                      int numValues, const aclDataType values[]) {
  return set_attr("aclopSetAttrListDataType", attr, attrName,
                  [&] { return AttrValue(list_of<DType>(numValues, values)); });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName,
                                                  int numValues, const uint8_t *values) {
  return set_attr("aclopSetAttrListBool", attr, attrName, [&] {
    auto v = list_of<uint8_t>(numValues, values);
    for (auto &b : v) b = b != 0;
    return AttrValue(std::move(v));
  });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName,
                                                 int numValues, const int64_t *values) {
  return set_attr("aclopSetAttrListInt", attr, attrName,
                  [&] { return AttrValue(list_of<int64_t>(numValues, values)); });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName,
                                                   int numValues, const float *values) {
  return set_attr("aclopSetAttrListFloat", attr, attrName,
                  [&] { return AttrValue(list_of<float>(numValues, values)); });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName,
                                                    int numValues, const char **values) {
  return set_attr("aclopSetAttrListString", attr, attrName, [&] {
    auto ptrs = list_of<const char *>(numValues, values);
    std::vector<std::string> v;
    for (size_t i = 0; i < ptrs.size(); ++i) {
      if (ptrs[i] == nullptr)
        fail(Errc::invalid_argument, "values[" + std::to_string(i) + "] is NULL");
      v.emplace_back(ptrs[i]);
    }
    return AttrValue(std::move(v));
  });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName,
                                                     int numLists, const int *numValues,
                                                     const int64_t *const values[]) {
  return set_attr("aclopSetAttrListListInt", attr, attrName, [&] {
    auto counts = list_of<int>(numLists, numValues);
    if (numLists > 0 && values == nullptr) fail(Errc::invalid_argument, "values is NULL");
    std::vector<std::vector<int64_t>> v;
    for (int i = 0; i < numLists; ++i) v.push_back(list_of<int64_t>(counts[i], values[i]));
    return AttrValue(std::move(v));
  });
}

}  // extern "C"
