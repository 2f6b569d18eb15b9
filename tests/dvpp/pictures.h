// Synthetic pictures and JPEG files made with libjpeg-turbo, for the DVPP suite and the DVPP
// benchmark (which compiles pictures.cpp too); nothing here needs GoogleTest or the runtime.
#pragma once

#include <cstdint>
#include <vector>

namespace dvt {

// Planar RGB test picture: smooth gradients with sharp edges, so that both interpolation and
// chroma handling show.
std::vector<uint8_t> rgb_picture(uint32_t width, uint32_t height);
// JPEG of an RGB picture; h_samp x v_samp luma sampling (2x2: 4:2:0, 1x1: 4:4:4); grey when
// components is 1.
std::vector<uint8_t> make_jpeg(uint32_t width, uint32_t height, int h_samp, int v_samp,
                               int components = 3, bool progressive = false);

}  // namespace dvt
