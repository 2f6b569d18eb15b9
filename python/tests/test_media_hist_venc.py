"""acl.media: the LUT map, histogram and pyramid calls, batch crop-resize-make-border, stream
descriptions and VENC with a Python callback on a subscribed thread."""
import numpy as np

import acl
from test_media import ACL_SUCCESS, ACL_ERROR_INVALID_PARAM, channel, stream, to_dvpp, from_dvpp, nv12_desc  # noqa: F401
from test_threads import ReportThread

PIXEL_FORMAT_YUV_400 = 0
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1
H264_MAIN_LEVEL = 2
NPY_UINT8 = 2
NPY_UINT32 = 6
BORDER_CONSTANT = 0


def grey_desc(data, width, height, width_stride):
    desc = acl.media.dvpp_create_pic_desc()
    for setter, value in ((acl.media.dvpp_set_pic_desc_data, data),
                          (acl.media.dvpp_set_pic_desc_size, width_stride * height),
                          (acl.media.dvpp_set_pic_desc_format, PIXEL_FORMAT_YUV_400),
                          (acl.media.dvpp_set_pic_desc_width, width),
                          (acl.media.dvpp_set_pic_desc_height, height),
                          (acl.media.dvpp_set_pic_desc_width_stride, width_stride),
                          (acl.media.dvpp_set_pic_desc_height_stride, height)):
        assert setter(desc, value) == ACL_SUCCESS
    return desc


def test_equalize_and_calc_hist(channel, stream):
    w, h = 32, 16
    pixels = (np.arange(w * h) % 251).astype(np.uint8)
    src, out = to_dvpp(pixels), to_dvpp(np.zeros(w * h, dtype=np.uint8))
    in_desc, out_desc = grey_desc(src, w, h, w), grey_desc(out, w, h, w)

    lut = acl.media.dvpp_create_lut_map()
    assert acl.media.dvpp_get_lut_map_dims(lut) == 3
    data, length, ret = acl.media.dvpp_get_lut_map_data(lut, 0)
    assert ret == ACL_SUCCESS and length == 256
    acl.util.ptr_to_numpy(data, (256,), NPY_UINT8)[:] = 255 - np.arange(256)
    assert acl.media.dvpp_vpc_equalize_hist_async(channel, in_desc, out_desc, lut, stream) == ACL_SUCCESS, \
        acl.get_recent_err_msg()

    hist = acl.media.dvpp_create_hist()
    assert acl.media.dvpp_vpc_calc_hist_async(channel, in_desc, hist, 0, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert (from_dvpp(out, w * h) == 255 - pixels).all()
    assert acl.media.dvpp_get_hist_dims(hist) == 3
    data, length, ret = acl.media.dvpp_get_hist_data(hist, 0)
    assert ret == ACL_SUCCESS and length == 256
    counts = acl.util.ptr_to_numpy(data, (256,), NPY_UINT32).copy()
    assert (counts == np.bincount(pixels, minlength=256)).all()
    assert acl.media.dvpp_get_hist_ret_code(hist) == 0
    assert acl.media.dvpp_clear_hist(hist) == ACL_SUCCESS
    assert acl.util.ptr_to_numpy(data, (256,), NPY_UINT32).sum() == 0
    _, _, ret = acl.media.dvpp_get_hist_data(hist, 3)
    assert ret == ACL_ERROR_INVALID_PARAM

    # One pyramid level down: a flat picture stays flat.
    flat = to_dvpp(np.full(64 * 24, 90, dtype=np.uint8))
    small = to_dvpp(np.zeros(32 * 12, dtype=np.uint8))
    flat_desc, small_desc = grey_desc(flat, 64, 24, 64), grey_desc(small, 32, 12, 32)
    assert acl.media.dvpp_vpc_pyr_down_async(channel, flat_desc, small_desc, 0, stream) == ACL_SUCCESS, \
        acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert (from_dvpp(small, 32 * 12) == 90).all()

    assert acl.media.dvpp_destroy_lut_map(lut) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_hist(hist) == ACL_SUCCESS
    for desc in (in_desc, out_desc, flat_desc, small_desc):
        assert acl.media.dvpp_destroy_pic_desc(desc) == ACL_SUCCESS
    for dev in (src, out, flat, small):
        assert acl.media.dvpp_free(dev) == ACL_SUCCESS


def test_batch_crop_resize_make_border(channel, stream):
    w, h, ow, oh = 64, 32, 48, 24
    src = to_dvpp(np.full(w * h * 3 // 2, 200, dtype=np.uint8))
    out, ret = acl.media.dvpp_malloc(ow * oh * 3 // 2)
    srcs, dsts = acl.media.dvpp_create_batch_pic_desc(1), acl.media.dvpp_create_batch_pic_desc(1)
    for batch, data, width, height in ((srcs, src, w, h), (dsts, out, ow, oh)):
        desc = acl.media.dvpp_get_pic_desc(batch, 0)
        for setter, value in ((acl.media.dvpp_set_pic_desc_data, data),
                              (acl.media.dvpp_set_pic_desc_size, width * height * 3 // 2),
                              (acl.media.dvpp_set_pic_desc_format, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                              (acl.media.dvpp_set_pic_desc_width, width),
                              (acl.media.dvpp_set_pic_desc_height, height),
                              (acl.media.dvpp_set_pic_desc_width_stride, width),
                              (acl.media.dvpp_set_pic_desc_height_stride, height)):
            assert setter(desc, value) == ACL_SUCCESS
    crop = acl.media.dvpp_create_roi_config(0, 31, 0, 15)
    border = acl.media.dvpp_create_border_config()
    assert acl.media.dvpp_set_border_config_border_type(border, BORDER_CONSTANT) == ACL_SUCCESS
    assert acl.media.dvpp_set_border_config_left(border, 8) == ACL_SUCCESS
    assert acl.media.dvpp_set_border_config_value(border, 0, 10.0) == ACL_SUCCESS
    resize = acl.media.dvpp_create_resize_config()
    assert acl.media.dvpp_vpc_batch_crop_resize_make_border_async(
        channel, srcs, [1], dsts, [crop], [border], resize, stream) == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    luma = from_dvpp(out, ow * oh * 3 // 2)[:ow * oh].reshape(oh, ow)
    assert (luma[:, :8] == 10).all() and (luma[:, 8:] == 200).all()
    # A missing border config is named, not read past the list.
    assert acl.media.dvpp_vpc_batch_crop_resize_make_border_async(
        channel, srcs, [1], dsts, [crop], [], resize, stream) == ACL_ERROR_INVALID_PARAM
    assert "borderCfgs[0] is NULL" in acl.get_recent_err_msg()
    for destroy, handle in ((acl.media.dvpp_destroy_roi_config, crop), (acl.media.dvpp_destroy_border_config, border),
                            (acl.media.dvpp_destroy_resize_config, resize),
                            (acl.media.dvpp_destroy_batch_pic_desc, srcs), (acl.media.dvpp_destroy_batch_pic_desc, dsts),
                            (acl.media.dvpp_free, src), (acl.media.dvpp_free, out)):
        assert destroy(handle) == ACL_SUCCESS


def test_venc_calls_back_with_each_frames_stream(stream):
    context, ret = acl.rt.get_context()
    assert ret == ACL_SUCCESS
    reporter = ReportThread(context)
    received = []

    def on_stream(input_desc, output_desc, user_data):
        size = acl.media.dvpp_get_stream_desc_size(output_desc)
        data = acl.media.dvpp_get_stream_desc_data(output_desc)
        received.append((user_data, input_desc != 0, acl.media.dvpp_get_stream_desc_ret_code(output_desc),
                         acl.media.dvpp_get_stream_desc_eos(output_desc), from_dvpp(data, size) if size else None))

    w, h = 128, 128
    venc = acl.media.venc_create_channel_desc()
    assert acl.media.venc_set_channel_desc_thread_id(venc, reporter.ident) == ACL_SUCCESS
    assert acl.media.venc_set_channel_desc_callback(venc, on_stream) == ACL_SUCCESS
    assert acl.media.venc_get_channel_desc_callback(venc) is on_stream
    assert acl.media.venc_set_channel_desc_entype(venc, H264_MAIN_LEVEL) == ACL_SUCCESS
    assert acl.media.venc_set_channel_desc_pic_format(venc, PIXEL_FORMAT_YUV_SEMIPLANAR_420) == ACL_SUCCESS
    assert acl.media.venc_set_channel_desc_pic_width(venc, w) == ACL_SUCCESS
    assert acl.media.venc_set_channel_desc_pic_height(venc, h) == ACL_SUCCESS
    assert acl.media.venc_get_channel_desc_pic_width(venc) == w
    ret = acl.media.venc_create_channel(venc)
    if ret != ACL_SUCCESS and "no libx264 encoder" in acl.get_recent_err_msg():
        reporter.stop()
        return
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    config = acl.media.venc_create_frame_config()
    frame = to_dvpp((np.arange(w * h * 3 // 2) % 200).astype(np.uint8))
    pic = nv12_desc(frame, w, h, w, h)
    for i in range(3):
        assert acl.media.venc_send_frame(venc, pic, 0, config, ("frame", i)) == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.media.venc_set_frame_config_eos(config, 1) == ACL_SUCCESS
    assert acl.media.venc_send_frame(venc, 0, 0, config, "eos") == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.media.venc_destroy_channel(venc) == ACL_SUCCESS
    reporter.stop()
    assert [r[0] for r in received] == [("frame", 0), ("frame", 1), ("frame", 2), "eos"]
    assert all(r[2] == 0 for r in received)
    assert [r[1] for r in received] == [True, True, True, False] and received[-1][3] == 1
    first = received[0][4]
    assert first is not None and bytes(first[:4]) in (b"\0\0\0\1", b"\0\0\1\x67")
    assert acl.media.venc_destroy_frame_config(config) == ACL_SUCCESS
    assert acl.media.venc_destroy_channel_desc(venc) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_pic_desc(pic) == ACL_SUCCESS
    assert acl.media.dvpp_free(frame) == ACL_SUCCESS


def test_short_batch_lists_are_refused_not_read_past(channel, stream):
    srcs, dsts = acl.media.dvpp_create_batch_pic_desc(4), acl.media.dvpp_create_batch_pic_desc(4)
    resize = acl.media.dvpp_create_resize_config()
    # size 3 with one roiNum given: the missing roiNums count as 0.
    assert acl.media.dvpp_vpc_batch_crop_async(channel, srcs, [1], 3, dsts, [], stream) == ACL_ERROR_INVALID_PARAM
    assert "cropAreas[0] is NULL" in acl.get_recent_err_msg()
    assert acl.media.dvpp_vpc_batch_crop_resize_paste_async(channel, srcs, [2], 1, dsts, [0, 0], [], resize,
                                                            stream) == ACL_ERROR_INVALID_PARAM
    assert acl.media.dvpp_vpc_batch_crop_async(channel, srcs, [1], 1000, dsts, [], stream) == ACL_ERROR_INVALID_PARAM
    assert "above 256" in acl.get_recent_err_msg()
    for destroy, handle in ((acl.media.dvpp_destroy_resize_config, resize),
                            (acl.media.dvpp_destroy_batch_pic_desc, srcs), (acl.media.dvpp_destroy_batch_pic_desc, dsts)):
        assert destroy(handle) == ACL_SUCCESS
