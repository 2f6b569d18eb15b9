// acl.media: LUT maps, histograms, and the VPC calls of the later CANN releases
// (equalize hist, calc hist, pyramid down, batch crop-resize-make-border). The map and
// histogram data are host memory: their addresses come back as ints for acl.util.ptr_to_numpy.
#include "common.h"

#define ENABLE_DVPP_INTERFACE
#include <acl/acl.h>
#include <acl/ops/acl_dvpp.h>

#include <tuple>

namespace openacl::py_acl {

void register_media_hist(py::module_ &m) {
  using Lut = acldvppLutMap;
  using Hist = acldvppHist;
  using Channel = acldvppChannelDesc;
  using Pic = acldvppPicDesc;
  m.def("dvpp_create_lut_map", [] { return to_int(acldvppCreateLutMap()); });
  m.def("dvpp_destroy_lut_map", [](Ptr l) { return acldvppDestroyLutMap(to_ptr<Lut>(l)); });
  m.def("dvpp_get_lut_map_dims", [](Ptr l) { return acldvppGetLutMapDims(to_ptr<const Lut>(l)); });
  m.def("dvpp_get_lut_map_data", [](Ptr l, uint32_t dim) {
    uint8_t *data = nullptr;
    uint32_t len = 0;
    aclError ret = acldvppGetLutMapData(to_ptr<const Lut>(l), dim, &data, &len);
    return std::make_tuple(to_int(data), len, ret);
  });
  m.def("dvpp_create_hist", [] { return to_int(acldvppCreateHist()); });
  m.def("dvpp_destroy_hist", [](Ptr h) { return acldvppDestroyHist(to_ptr<Hist>(h)); });
  m.def("dvpp_get_hist_dims", [](Ptr h) { return acldvppGetHistDims(to_ptr<Hist>(h)); });
  m.def("dvpp_get_hist_data", [](Ptr h, uint32_t dim) {
    uint32_t *data = nullptr;
    uint16_t len = 0;
    aclError ret = acldvppGetHistData(to_ptr<Hist>(h), dim, &data, &len);
    return std::make_tuple(to_int(data), static_cast<uint32_t>(len), ret);
  });
  m.def("dvpp_get_hist_ret_code", [](Ptr h) { return acldvppGetHistRetCode(to_ptr<Hist>(h)); });
  m.def("dvpp_clear_hist", [](Ptr h) { return acldvppClearHist(to_ptr<Hist>(h)); });

  m.def("dvpp_vpc_equalize_hist_async", [](Ptr ch, Ptr in, Ptr out, Ptr lut, Ptr stream) {
    return acldvppVpcEqualizeHistAsync(to_ptr<const Channel>(ch), to_ptr<const Pic>(in),
                                       to_ptr<Pic>(out), to_ptr<const Lut>(lut), to_ptr(stream));
  });
  m.def("dvpp_vpc_calc_hist_async", [](Ptr ch, Ptr src, Ptr hist, Ptr reserve, Ptr stream) {
    return acldvppVpcCalcHistAsync(to_ptr<Channel>(ch), to_ptr<Pic>(src), to_ptr<Hist>(hist),
                                   to_ptr(reserve), to_ptr(stream));
  });
  m.def("dvpp_vpc_pyr_down_async", [](Ptr ch, Ptr in, Ptr out, Ptr reserve, Ptr stream) {
    return acldvppVpcPyrDownAsync(to_ptr<Channel>(ch), to_ptr<Pic>(in), to_ptr<Pic>(out),
                                  to_ptr(reserve), to_ptr(stream));
  });
  // pyACL's form has no size: it is the length of roi_nums.
  m.def("dvpp_vpc_batch_crop_resize_make_border_async",
        [](Ptr ch, Ptr src, std::vector<uint32_t> roi_nums, Ptr dst, const std::vector<Ptr> &crops,
           const std::vector<Ptr> &borders, Ptr config, Ptr stream) {
          const auto size = static_cast<uint32_t>(roi_nums.size());
          auto c = padded_regions<acldvppRoiConfig>(crops, roi_nums, size);
          auto b = padded_regions<acldvppBorderConfig>(borders, roi_nums, size);
          return acldvppVpcBatchCropResizeMakeBorderAsync(
              to_ptr<Channel>(ch), to_ptr<acldvppBatchPicDesc>(src), roi_nums.data(), size,
              to_ptr<acldvppBatchPicDesc>(dst), c.data(), b.data(),
              to_ptr<acldvppResizeConfig>(config), to_ptr(stream));
        });
}

}  // namespace openacl::py_acl
