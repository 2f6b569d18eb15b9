"""acl.media: pyACL's DVPP calls. A picture goes NV12 -> JPEGE -> JPEGD -> VPC resize, checked
with numpy; misuse returns the C library's error codes."""
import numpy as np
import pytest

import acl

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1


@pytest.fixture
def stream(device):
    s, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    yield s
    assert acl.rt.destroy_stream(s) == ACL_SUCCESS


@pytest.fixture
def channel(device):
    desc = acl.media.dvpp_create_channel_desc()
    assert desc != 0
    assert acl.media.dvpp_create_channel(desc) == ACL_SUCCESS
    yield desc
    assert acl.media.dvpp_destroy_channel(desc) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_channel_desc(desc) == ACL_SUCCESS


def to_dvpp(array):
    data = array.tobytes()
    dev, ret = acl.media.dvpp_malloc(len(data))
    assert ret == ACL_SUCCESS
    assert acl.rt.memcpy(dev, len(data), acl.util.bytes_to_ptr(data), len(data),
                         ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    return dev


def from_dvpp(dev, size):
    out = bytearray(size)
    assert acl.rt.memcpy(acl.util.bytes_to_ptr(out), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    return np.frombuffer(out, dtype=np.uint8)


def nv12_desc(data, width, height, width_stride, height_stride):
    desc = acl.media.dvpp_create_pic_desc()
    for setter, value in ((acl.media.dvpp_set_pic_desc_data, data),
                          (acl.media.dvpp_set_pic_desc_size, width_stride * height_stride * 3 // 2),
                          (acl.media.dvpp_set_pic_desc_format, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                          (acl.media.dvpp_set_pic_desc_width, width),
                          (acl.media.dvpp_set_pic_desc_height, height),
                          (acl.media.dvpp_set_pic_desc_width_stride, width_stride),
                          (acl.media.dvpp_set_pic_desc_height_stride, height_stride)):
        assert setter(desc, value) == ACL_SUCCESS
    return desc


def test_encode_decode_resize(channel, stream):
    w, h = 64, 48
    y = np.add.outer(np.arange(h), np.arange(w)).astype(np.uint8) + 40
    uv = np.full((h // 2, w), 128, dtype=np.uint8)
    nv12 = np.concatenate([y, uv]).ravel()
    src = to_dvpp(nv12)
    src_desc = nv12_desc(src, w, h, w, h)

    config = acl.media.dvpp_create_jpege_config()
    assert acl.media.dvpp_set_jpege_config_level(config, 100) == ACL_SUCCESS
    predicted, ret = acl.media.dvpp_jpeg_predict_enc_size(src_desc, config)
    assert ret == ACL_SUCCESS and predicted > 0
    jpeg_dev, ret = acl.media.dvpp_malloc(predicted)
    size = bytearray(np.array([predicted], dtype=np.uint32).tobytes())  # the task writes the JPEG's size
    assert acl.media.dvpp_jpeg_encode_async(channel, src_desc, jpeg_dev, acl.util.bytes_to_ptr(size), config,
                                            stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    jpeg_size = int(np.frombuffer(size, dtype=np.uint32)[0])
    assert 0 < jpeg_size < predicted
    jpeg = from_dvpp(jpeg_dev, jpeg_size).tobytes()
    assert jpeg[:2] == b"\xff\xd8"

    width, height, components, ret = acl.media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(jpeg), jpeg_size)
    assert (width, height, components, ret) == (w, h, 3, ACL_SUCCESS)
    dec_size, ret = acl.media.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(jpeg), jpeg_size,
                                                          PIXEL_FORMAT_YUV_SEMIPLANAR_420)
    assert ret == ACL_SUCCESS and dec_size == 128 * 48 * 3 // 2
    dec_dev, ret = acl.media.dvpp_malloc(dec_size)
    dec_desc = acl.media.dvpp_create_pic_desc()
    acl.media.dvpp_set_pic_desc_data(dec_desc, dec_dev)
    acl.media.dvpp_set_pic_desc_size(dec_desc, dec_size)
    acl.media.dvpp_set_pic_desc_format(dec_desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
    assert acl.media.dvpp_jpeg_decode_async(channel, jpeg_dev, jpeg_size, dec_desc, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert acl.media.dvpp_get_pic_desc_width(dec_desc) == w
    assert acl.media.dvpp_get_pic_desc_width_stride(dec_desc) == 128
    assert acl.media.dvpp_get_pic_desc_height_stride(dec_desc) == 48
    decoded = from_dvpp(dec_dev, dec_size)
    luma = decoded[:128 * h].reshape(h, 128)[:, :w]
    assert np.abs(luma.astype(int) - y).max() <= 2

    # Resize the decoded picture (described with its strides) to 32x16.
    out_dev, ret = acl.media.dvpp_malloc(32 * 16 * 3 // 2)
    out_desc = nv12_desc(out_dev, 32, 16, 32, 16)
    resize = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(channel, dec_desc, out_desc, resize, stream) == ACL_SUCCESS, \
        acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    small = from_dvpp(out_dev, 32 * 16 * 3 // 2)[:32 * 16].reshape(16, 32)
    assert abs(int(small[0, 0]) - int(luma[:3, :3].mean())) <= 3
    assert abs(int(small[-1, -1]) - int(luma[-3:, -3:].mean())) <= 3

    for desc in (src_desc, dec_desc, out_desc):
        assert acl.media.dvpp_destroy_pic_desc(desc) == ACL_SUCCESS
    for dev in (src, jpeg_dev, dec_dev, out_dev):
        assert acl.media.dvpp_free(dev) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_jpege_config(config) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_resize_config(resize) == ACL_SUCCESS


def test_errors_come_back_as_codes(channel, stream):
    dev, ret = acl.rt.malloc(4096, 0)
    assert ret == ACL_SUCCESS
    desc = nv12_desc(dev, 32, 16, 32, 16)
    other, ret = acl.media.dvpp_malloc(4096)
    out = nv12_desc(other, 32, 16, 32, 16)
    resize = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_resize_async(channel, desc, out, resize, stream) == ACL_ERROR_INVALID_PARAM
    assert "acldvppVpcResizeAsync: inputDesc data is device memory from aclrtMalloc" in acl.get_recent_err_msg()
    assert acl.media.dvpp_free(dev) == ACL_ERROR_INVALID_PARAM
    with pytest.raises(TypeError):
        acl.media.dvpp_malloc("big")
    assert acl.media.dvpp_get_pic_desc_width(0) == 0
    acl.media.dvpp_destroy_pic_desc(desc)
    acl.media.dvpp_destroy_pic_desc(out)
    acl.media.dvpp_destroy_resize_config(resize)
    assert acl.media.dvpp_free(other) == ACL_SUCCESS
    assert acl.rt.free(dev) == ACL_SUCCESS


def test_make_border(channel, stream):
    w, h = 32, 16
    src = to_dvpp(np.full(w * h * 3 // 2, 77, dtype=np.uint8))
    ow, oh = w + 16, h + 4
    out, ret = acl.media.dvpp_malloc(ow * oh * 3 // 2)
    in_desc, out_desc = nv12_desc(src, w, h, w, h), nv12_desc(out, ow, oh, ow, oh)
    border = acl.media.dvpp_create_border_config()
    for setter, value in ((acl.media.dvpp_set_border_config_top, 2), (acl.media.dvpp_set_border_config_bottom, 2),
                          (acl.media.dvpp_set_border_config_left, 8), (acl.media.dvpp_set_border_config_right, 8)):
        assert setter(border, value) == ACL_SUCCESS
    assert acl.media.dvpp_set_border_config_value(border, 0, 5.0) == ACL_SUCCESS
    assert acl.media.dvpp_get_border_config_left(border) == 8
    assert acl.media.dvpp_vpc_make_border_async(channel, in_desc, out_desc, border, stream) == ACL_SUCCESS, \
        acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    luma = from_dvpp(out, ow * oh * 3 // 2)[:ow * oh].reshape(oh, ow)
    assert (luma[:2] == 5).all() and (luma[:, :8] == 5).all()
    assert (luma[2:2 + h, 8:8 + w] == 77).all()
    assert acl.media.dvpp_destroy_border_config(border) == ACL_SUCCESS
    for desc in (in_desc, out_desc):
        assert acl.media.dvpp_destroy_pic_desc(desc) == ACL_SUCCESS
    for dev in (src, out):
        assert acl.media.dvpp_free(dev) == ACL_SUCCESS
