// Scenario: the image input of a classification sample (acl/ops/acl_dvpp.h). A JPEG file's
// bytes are copied into DVPP memory, JPEGD decodes them to YUV420SP on a stream, and VPC resizes
// the decoded picture (described with the strides JPEGD reports) to a 224x224 model input, all
// in stream order with one synchronization at the end. Without an argument the example first
// encodes its own 640x480 picture with JPEGE; with a path it reads that JPEG.
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#include <fstream>
#include <iterator>
#include <vector>

#include "common.h"

namespace {

acldvppPicDesc *yuv_picture(void *data, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
  acldvppPicDesc *d = acldvppCreatePicDesc();
  CHECK_ACL(acldvppSetPicDescData(d, data));
  CHECK_ACL(acldvppSetPicDescSize(d, ws * hs * 3 / 2));
  CHECK_ACL(acldvppSetPicDescFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
  CHECK_ACL(acldvppSetPicDescWidth(d, w));
  CHECK_ACL(acldvppSetPicDescHeight(d, h));
  CHECK_ACL(acldvppSetPicDescWidthStride(d, ws));
  CHECK_ACL(acldvppSetPicDescHeightStride(d, hs));
  return d;
}

// A 640x480 NV12 picture (luma ramp, neutral chroma) encoded with JPEGE.
std::vector<unsigned char> make_jpeg(acldvppChannelDesc *channel, aclrtStream s) {
  const uint32_t w = 640, h = 480, size = w * h * 3 / 2;
  std::vector<unsigned char> nv12(size, 128);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) nv12[y * w + x] = static_cast<unsigned char>((x + y) / 5);
  void *in = nullptr, *out = nullptr;
  CHECK_ACL(acldvppMalloc(&in, size));
  CHECK_ACL(aclrtMemcpy(in, size, nv12.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
  acldvppPicDesc *desc = yuv_picture(in, w, h, w, h);
  acldvppJpegeConfig *config = acldvppCreateJpegeConfig();
  CHECK_ACL(acldvppSetJpegeConfigLevel(config, 90));
  uint32_t jpeg_size = 0;
  CHECK_ACL(acldvppJpegPredictEncSize(desc, config, &jpeg_size));
  CHECK_ACL(acldvppMalloc(&out, jpeg_size));
  CHECK_ACL(acldvppJpegEncodeAsync(channel, desc, out, &jpeg_size, config, s));
  CHECK_ACL(aclrtSynchronizeStream(s));
  std::vector<unsigned char> jpeg(jpeg_size);
  CHECK_ACL(aclrtMemcpy(jpeg.data(), jpeg_size, out, jpeg_size, ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK_ACL(acldvppDestroyJpegeConfig(config));
  CHECK_ACL(acldvppDestroyPicDesc(desc));
  CHECK_ACL(acldvppFree(in));
  CHECK_ACL(acldvppFree(out));
  return jpeg;
}

}  // namespace

int main(int argc, char **argv) {
  std::printf("DVPP: JPEG decode and resize to a model input\n");
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  CHECK_ACL(aclrtCreateStream(&s));
  acldvppChannelDesc *channel = acldvppCreateChannelDesc();
  CHECK_ACL(acldvppCreateChannel(channel));

  std::vector<unsigned char> jpeg;
  if (argc > 1) {
    std::ifstream f(argv[1], std::ios::binary);
    jpeg.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  } else {
    jpeg = make_jpeg(channel, s);
  }
  uint32_t width = 0, height = 0, dec_size = 0;
  int32_t components = 0;
  CHECK_ACL(acldvppJpegGetImageInfo(jpeg.data(), jpeg.size(), &width, &height, &components));
  CHECK_ACL(acldvppJpegPredictDecSize(jpeg.data(), jpeg.size(), PIXEL_FORMAT_YUV_SEMIPLANAR_420,
                                      &dec_size));
  std::printf("  %ux%u JPEG, %d components, %u bytes decoded\n", width, height, components,
              dec_size);

  void *in = nullptr, *decoded = nullptr, *model_input = nullptr;
  CHECK_ACL(acldvppMalloc(&in, jpeg.size()));
  CHECK_ACL(acldvppMalloc(&decoded, dec_size));
  CHECK_ACL(acldvppMalloc(&model_input, 224 * 224 * 3 / 2));
  CHECK_ACL(aclrtMemcpy(in, jpeg.size(), jpeg.data(), jpeg.size(), ACL_MEMCPY_HOST_TO_DEVICE));

  acldvppPicDesc *decode_desc = acldvppCreatePicDesc();
  CHECK_ACL(acldvppSetPicDescData(decode_desc, decoded));
  CHECK_ACL(acldvppSetPicDescSize(decode_desc, dec_size));
  CHECK_ACL(acldvppSetPicDescFormat(decode_desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
  CHECK_ACL(acldvppJpegDecodeAsync(channel, in, jpeg.size(), decode_desc, s));

  // JPEGD's layout (even size, strides aligned to 128 and 16) is known before the decode runs,
  // so the resize can be queued behind it on the same stream.
  const uint32_t w = width & ~1u, h = height & ~1u;
  acldvppPicDesc *resize_in = yuv_picture(decoded, w, h, (w + 127) / 128 * 128, (h + 15) / 16 * 16);
  acldvppPicDesc *resize_out = yuv_picture(model_input, 224, 224, 224, 224);
  acldvppResizeConfig *resize = acldvppCreateResizeConfig();
  CHECK_ACL(acldvppVpcResizeAsync(channel, resize_in, resize_out, resize, s));
  CHECK_ACL(aclrtSynchronizeStream(s));

  EXPECT_TRUE(acldvppGetPicDescWidth(decode_desc) == w && acldvppGetPicDescHeight(decode_desc) == h,
              "JPEGD reported the decoded size");
  EXPECT_TRUE(acldvppGetPicDescWidthStride(decode_desc) == (w + 127) / 128 * 128,
              "JPEGD's width stride is aligned to 128");
  std::vector<unsigned char> input(224 * 224 * 3 / 2);
  CHECK_ACL(aclrtMemcpy(input.data(), input.size(), model_input, input.size(),
                        ACL_MEMCPY_DEVICE_TO_HOST));
  if (argc == 1) {
    // The ramp survives: top-left dark, bottom-right bright, chroma neutral.
    EXPECT_TRUE(input[0] < 10 && input[224 * 224 - 1] > 200,
                "the resized luma keeps the picture's ramp");
    EXPECT_TRUE(input[224 * 224] > 120 && input[224 * 224] < 136,
                "the resized chroma stays neutral");
  }

  CHECK_ACL(acldvppDestroyResizeConfig(resize));
  for (acldvppPicDesc *d : {decode_desc, resize_in, resize_out})
    CHECK_ACL(acldvppDestroyPicDesc(d));
  for (void *p : {in, decoded, model_input}) CHECK_ACL(acldvppFree(p));
  CHECK_ACL(acldvppDestroyChannel(channel));
  CHECK_ACL(acldvppDestroyChannelDesc(channel));
  CHECK_ACL(aclrtDestroyStream(s));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS\n");
  return 0;
}
