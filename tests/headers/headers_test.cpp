// The public headers seen from C11, C++17 and C++20 (compiled strictly in their own objects) must
// agree with each other and with this C++20 translation unit on every public struct layout, and
// the static-const error codes must read the reference values from C as well.
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_op_compiler.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "struct_list.h"

extern "C" {
extern const size_t openacl_hdr_sizes_c11[];
extern const size_t openacl_hdr_aligns_c11[];
extern const size_t openacl_hdr_count_c11;
extern const size_t openacl_hdr_sizes_cxx17[];
extern const size_t openacl_hdr_aligns_cxx17[];
extern const size_t openacl_hdr_sizes_cxx20[];
extern const size_t openacl_hdr_aligns_cxx20[];
void openacl_hdr_codes_c11(long long *out);
int openacl_hdr_is_stream_context_c11(int code);
}

namespace {

#define OPENACL_NAME(T) #T,
#define OPENACL_SIZE(T) sizeof(T),
#define OPENACL_ALIGN(T) alignof(T),
const std::vector<std::string> kNames = {OPENACL_PUBLIC_STRUCTS(OPENACL_NAME)};
const std::vector<size_t> kSizes = {OPENACL_PUBLIC_STRUCTS(OPENACL_SIZE)};
const std::vector<size_t> kAligns = {OPENACL_PUBLIC_STRUCTS(OPENACL_ALIGN)};

TEST(PublicHeaders, ListsEveryReferenceStruct) {
  EXPECT_EQ(kNames.size(), 66u);  // api.json's "structs"
  EXPECT_EQ(openacl_hdr_count_c11, kNames.size());
}

TEST(PublicHeaders, StructLayoutsAgreeBetweenCAndCxx) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    SCOPED_TRACE(kNames[i]);
    EXPECT_EQ(openacl_hdr_sizes_c11[i], kSizes[i]);
    EXPECT_EQ(openacl_hdr_aligns_c11[i], kAligns[i]);
    EXPECT_EQ(openacl_hdr_sizes_cxx17[i], kSizes[i]);
    EXPECT_EQ(openacl_hdr_aligns_cxx17[i], kAligns[i]);
    EXPECT_EQ(openacl_hdr_sizes_cxx20[i], kSizes[i]);
    EXPECT_EQ(openacl_hdr_aligns_cxx20[i], kAligns[i]);
  }
}

TEST(PublicHeaders, StaticConstCodesReadTheReferenceValuesFromC) {
  long long codes[7] = {};
  openacl_hdr_codes_c11(codes);
  EXPECT_EQ(codes[0], 0);
  EXPECT_EQ(codes[1], 100000);
  EXPECT_EQ(codes[2], 200001);
  EXPECT_EQ(codes[3], 500005);
  EXPECT_EQ(codes[4], 145000);
  EXPECT_EQ(codes[5], 545602);
  EXPECT_EQ(codes[6], 1);
}

TEST(PublicHeaders, RuntimeCodesAreUsableAsCaseLabelsInC) {
  EXPECT_EQ(openacl_hdr_is_stream_context_c11(107003), 1);
  EXPECT_EQ(openacl_hdr_is_stream_context_c11(107002), 0);
}

}  // namespace
