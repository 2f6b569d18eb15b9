// Datasets and model descriptions: create, destroy, buffers and tensor descriptors
// (acl/acl_mdl.h; docs/RULES.md R18). Pure data calls: no aclInit needed.
#include "api/mdl/dataset.h"

#include <new>

#include "api/guard.h"
#include "core/runtime.h"

using openacl::Errc;
using openacl::fail;

namespace openacl::api {
namespace {

Registry<aclmdlDataset> &datasets() { return Runtime::get().tables.kept<aclmdlDataset>(); }
Registry<aclmdlDesc> &descs() { return Runtime::get().tables.kept<aclmdlDesc>(); }

}  // namespace

aclmdlDataset &dataset_of(const aclmdlDataset *handle, const char *what) {
  if (handle == nullptr) fail(Errc::invalid_argument, std::string(what) + " is NULL");
  auto d = datasets().find(handle);
  if (!d)
    fail(Errc::invalid_argument,
         std::string(what) + " is not a live dataset (unknown or destroyed)");
  return *d;  // the caller's handle keeps it alive during the call
}

aclmdlDesc &model_desc_of(const aclmdlDesc *handle, const char *what) {
  if (handle == nullptr) fail(Errc::invalid_argument, std::string(what) + " is NULL");
  auto d = descs().find(handle);
  if (!d)
    fail(Errc::invalid_argument,
         std::string(what) + " is not a live model description (unknown or destroyed)");
  return *d;
}

}  // namespace openacl::api

using openacl::api::dataset_of;
using openacl::api::guarded;

extern "C" {

ACL_FUNC_VISIBILITY aclmdlDataset *aclmdlCreateDataset() {
  aclmdlDataset *out = nullptr;
  guarded(__func__, [&] {
    auto d = std::make_shared<aclmdlDataset>();
    out = d.get();
    openacl::api::datasets().add(std::move(d));
  });
  return out;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyDataset(const aclmdlDataset *dataset) {
  return guarded(__func__, [&] {
    if (dataset == nullptr) fail(Errc::invalid_argument, "dataset is NULL");
    if (!openacl::api::datasets().remove(dataset))
      fail(Errc::invalid_argument, "dataset is not a live dataset (unknown or destroyed)");
  });
}

ACL_FUNC_VISIBILITY aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset,
                                                    aclDataBuffer *dataBuffer) {
  return guarded(__func__, [&] {
    aclmdlDataset &d = dataset_of(dataset, "dataset");
    if (dataBuffer == nullptr) fail(Errc::invalid_argument, "dataBuffer is NULL");
    d.buffers.push_back(dataBuffer);
    d.descs.emplace_back();
  });
}

ACL_FUNC_VISIBILITY size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset) {
  size_t n = 0;
  guarded(__func__, [&] { n = dataset_of(dataset, "dataset").buffers.size(); });
  return n;
}

ACL_FUNC_VISIBILITY aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset,
                                                          size_t index) {
  aclDataBuffer *b = nullptr;
  guarded(__func__, [&] {
    const aclmdlDataset &d = dataset_of(dataset, "dataset");
    if (index >= d.buffers.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                       " is out of range: the dataset has " +
                                       std::to_string(d.buffers.size()) + " buffers");
    b = d.buffers[index];
  });
  return b;
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset,
                                                        aclTensorDesc *tensorDesc, size_t index) {
  return guarded(__func__, [&] {
    aclmdlDataset &d = dataset_of(dataset, "dataset");
    if (tensorDesc == nullptr) fail(Errc::invalid_argument, "tensorDesc is NULL");
    if (index >= d.buffers.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                       " is out of range: the dataset has " +
                                       std::to_string(d.buffers.size()) + " buffers");
    d.descs[index] = std::make_unique<aclTensorDesc>(*tensorDesc);  // a copy the dataset owns
  });
}

ACL_FUNC_VISIBILITY aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset,
                                                              size_t index) {
  aclTensorDesc *t = nullptr;
  guarded(__func__, [&] {
    const aclmdlDataset &d = dataset_of(dataset, "dataset");
    if (index >= d.buffers.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) +
                                       " is out of range: the dataset has " +
                                       std::to_string(d.buffers.size()) + " buffers");
    t = d.descs[index].get();
  });
  return t;
}

ACL_FUNC_VISIBILITY aclmdlDesc *aclmdlCreateDesc() {
  aclmdlDesc *out = nullptr;
  guarded(__func__, [&] {
    auto d = std::make_shared<aclmdlDesc>();
    out = d.get();
    openacl::api::descs().add(std::move(d));
  });
  return out;
}

ACL_FUNC_VISIBILITY aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc) {
  return guarded(__func__, [&] {
    if (modelDesc == nullptr) fail(Errc::invalid_argument, "modelDesc is NULL");
    if (!openacl::api::descs().remove(modelDesc))
      fail(Errc::invalid_argument,
           "modelDesc is not a live model description (unknown or destroyed)");
  });
}

}  // extern "C"
