"""acl.media VDEC: an H.264 stream made with acl.media's VENC in the test is decoded frame by frame
with the pyACL calls, the callback running on the subscribed Python thread; the channel
description's param calls (CSC matrix, VENC's one-call forms)."""
import threading

import numpy as np
import pytest

import acl
from test_media import ACL_SUCCESS, ACL_MEMCPY_HOST_TO_DEVICE, stream, to_dvpp, from_dvpp, nv12_desc  # noqa: F401
from test_threads import ReportThread

PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1
H264_MAIN_LEVEL = 2
ACL_VENC_THREAD_ID_UINT64 = 0
ACL_VENC_CALLBACK_PTR = 1
ACL_VENC_PIXEL_FORMAT_UINT32 = 2
ACL_VENC_ENCODE_TYPE_UINT32 = 3
ACL_VENC_PIC_WIDTH_UINT32 = 4
ACL_VENC_PIC_HEIGHT_UINT32 = 5
ACL_VENC_BUF_ADDR_PTR = 7
ACL_VENC_SRC_RATE_UINT32 = 10
CSC_MATRIX_PARAM = 0
ACL_DVPP_CSC_MATRIX_BT709_NARROW = 3
W, H = 160, 128
FRAMES = 6


def source_frames():
    """NV12 frames of a gradient that moves 4 pixels a frame, so each frame differs."""
    ys, xs = np.mgrid[0:H, 0:W]
    frames = []
    for i in range(FRAMES):
        y = (40 + (xs + 4 * i) % W + ys // 2).astype(np.uint8)
        uv = np.empty((H // 2, W), dtype=np.uint8)
        uv[:, 0::2] = 100 + i * 4
        uv[:, 1::2] = 150 - i * 4
        frames.append(np.concatenate([y, uv]))
    return frames


def encode(frames, reporter):
    """The frames as H.264 access units, made with acl.media's VENC set up through its param calls."""
    units = []

    def on_stream(_input, output, _user_data):
        size = acl.media.dvpp_get_stream_desc_size(output)
        if size:
            units.append(from_dvpp(acl.media.dvpp_get_stream_desc_data(output), size).tobytes())

    venc = acl.media.venc_create_channel_desc()
    for param, value in ((ACL_VENC_THREAD_ID_UINT64, reporter.ident), (ACL_VENC_CALLBACK_PTR, on_stream),
                         (ACL_VENC_ENCODE_TYPE_UINT32, H264_MAIN_LEVEL),
                         (ACL_VENC_PIXEL_FORMAT_UINT32, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                         (ACL_VENC_PIC_WIDTH_UINT32, W), (ACL_VENC_PIC_HEIGHT_UINT32, H),
                         (ACL_VENC_SRC_RATE_UINT32, 25)):
        assert acl.media.venc_set_channel_desc_param(venc, param, value) == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.media.venc_get_channel_desc_param(venc, ACL_VENC_THREAD_ID_UINT64) == (reporter.ident, ACL_SUCCESS)
    assert acl.media.venc_get_channel_desc_param(venc, ACL_VENC_CALLBACK_PTR) == (on_stream, ACL_SUCCESS)
    assert acl.media.venc_get_channel_desc_param(venc, ACL_VENC_PIC_WIDTH_UINT32) == (W, ACL_SUCCESS)
    assert acl.media.venc_get_channel_desc_param(venc, ACL_VENC_BUF_ADDR_PTR) == (0, ACL_SUCCESS)
    assert acl.media.venc_get_channel_desc_entype(venc) == H264_MAIN_LEVEL
    assert acl.media.venc_get_channel_desc_src_rate(venc) == 25
    with pytest.raises(TypeError):
        acl.media.venc_set_channel_desc_param(venc, ACL_VENC_PIC_WIDTH_UINT32, "wide")
    ret = acl.media.venc_create_channel(venc)
    if ret != ACL_SUCCESS and "no libx264 encoder" in acl.get_recent_err_msg():
        pytest.skip("libavcodec has no libx264 encoder")
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    config = acl.media.venc_create_frame_config()
    sent = []
    for frame in frames:
        dev = to_dvpp(frame)
        sent.append((dev, nv12_desc(dev, W, H, W, H)))
        assert acl.media.venc_send_frame(venc, sent[-1][1], 0, config, None) == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.media.venc_destroy_channel(venc) == ACL_SUCCESS  # waits for every frame's callback
    for dev, pic in sent:
        assert acl.media.dvpp_destroy_pic_desc(pic) == ACL_SUCCESS
        assert acl.media.dvpp_free(dev) == ACL_SUCCESS
    assert acl.media.venc_destroy_frame_config(config) == ACL_SUCCESS
    assert acl.media.venc_destroy_channel_desc(venc) == ACL_SUCCESS
    assert len(units) == len(frames)
    return units


def stream_desc(data, size, eos=0):
    desc = acl.media.dvpp_create_stream_desc()
    assert acl.media.dvpp_set_stream_desc_data(desc, data) == ACL_SUCCESS
    assert acl.media.dvpp_set_stream_desc_size(desc, size) == ACL_SUCCESS
    assert acl.media.dvpp_set_stream_desc_format(desc, H264_MAIN_LEVEL) == ACL_SUCCESS
    assert acl.media.dvpp_set_stream_desc_eos(desc, eos) == ACL_SUCCESS
    return desc


def test_vdec_decodes_the_encoders_frames(stream):
    context, ret = acl.rt.get_context()
    assert ret == ACL_SUCCESS
    reporter = ReportThread(context)
    try:
        frames = source_frames()
        units = encode(frames, reporter)
        decoded = []

        all_sent = threading.Event()

        def on_picture(input_desc, output_desc, user_data):
            # The channel's stream waits for each callback: until every frame is sent, no later
            # frame decodes, and by then the shared input buffer holds the last frame.
            if user_data == ("frame", 0):
                assert all_sent.wait(30)
            if output_desc == 0:
                decoded.append((user_data, None))
                return
            assert acl.media.dvpp_get_pic_desc_ret_code(output_desc) == 0
            ws = acl.media.dvpp_get_pic_desc_width_stride(output_desc)
            hs = acl.media.dvpp_get_pic_desc_height_stride(output_desc)
            size = acl.media.dvpp_get_pic_desc_size(output_desc)
            picture = from_dvpp(acl.media.dvpp_get_pic_desc_data(output_desc), size)
            planes = picture[:ws * hs * 3 // 2].reshape(hs * 3 // 2, ws)
            nv12 = np.concatenate([planes[:H, :W], planes[hs:hs + H // 2, :W]])
            decoded.append((user_data, (acl.media.dvpp_get_pic_desc_width(output_desc),
                                        acl.media.dvpp_get_pic_desc_height(output_desc), nv12)))

        vdec = acl.media.vdec_create_channel_desc()
        with pytest.raises(RuntimeError):
            acl.media.vdec_get_channel_desc_callback(vdec)
        assert acl.media.vdec_set_channel_desc_channel_id(vdec, 0) == ACL_SUCCESS
        assert acl.media.vdec_set_channel_desc_thread_id(vdec, reporter.ident) == ACL_SUCCESS
        assert acl.media.vdec_set_channel_desc_callback(vdec, on_picture) == ACL_SUCCESS
        assert acl.media.vdec_set_channel_desc_entype(vdec, H264_MAIN_LEVEL) == ACL_SUCCESS
        assert acl.media.vdec_set_channel_desc_out_pic_format(vdec, PIXEL_FORMAT_YUV_SEMIPLANAR_420) == ACL_SUCCESS
        assert acl.media.vdec_get_channel_desc_out_mode(vdec) == 0
        assert acl.media.vdec_set_channel_desc_param(vdec, CSC_MATRIX_PARAM, ACL_DVPP_CSC_MATRIX_BT709_NARROW) == \
            (vdec, ACL_SUCCESS)
        assert acl.media.vdec_get_channel_desc_param(vdec, CSC_MATRIX_PARAM) == \
            (4, ACL_DVPP_CSC_MATRIX_BT709_NARROW, ACL_SUCCESS)
        assert acl.media.vdec_get_channel_desc_thread_id(vdec) == reporter.ident
        assert acl.media.vdec_get_channel_desc_callback(vdec) is on_picture
        assert acl.media.vdec_get_channel_desc_entype(vdec) == H264_MAIN_LEVEL
        assert acl.media.vdec_create_channel(vdec) == ACL_SUCCESS, acl.get_recent_err_msg()

        out_size = W * H * 3 // 2  # 160x128: already aligned to 16 and 2
        config = acl.media.vdec_create_frame_config()
        # One input buffer refilled for each frame right after the previous send, as acllite's
        # VideoCapture does: the send must have taken the frame's bytes.
        data, ret = acl.media.dvpp_malloc(max(len(unit) for unit in units))
        assert ret == ACL_SUCCESS
        buffers = []
        for i, unit in enumerate(units):
            assert acl.rt.memcpy(data, len(unit), acl.util.bytes_to_ptr(unit), len(unit),
                                 ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
            out, ret = acl.media.dvpp_malloc(out_size)
            assert ret == ACL_SUCCESS
            pic = acl.media.dvpp_create_pic_desc()
            assert acl.media.dvpp_set_pic_desc_data(pic, out) == ACL_SUCCESS
            assert acl.media.dvpp_set_pic_desc_size(pic, out_size) == ACL_SUCCESS
            buffers.append((out, pic, stream_desc(data, len(unit))))
            if i == 2:  # decoded, not output
                assert acl.media.vdec_send_skipped_frame(vdec, buffers[-1][2], config, ("skipped", i)) == ACL_SUCCESS
            else:
                assert acl.media.vdec_send_frame(vdec, buffers[-1][2], pic, config, ("frame", i)) == ACL_SUCCESS, \
                    acl.get_recent_err_msg()
        all_sent.set()
        eos = stream_desc(0, 0, eos=1)
        # As in CANN, the end of stream's send returns after every callback.
        assert acl.media.vdec_send_frame(vdec, eos, 0, config, "eos") == ACL_SUCCESS, acl.get_recent_err_msg()
        assert decoded[-1] == ("eos", None)
        assert acl.media.vdec_destroy_channel(vdec) == ACL_SUCCESS  # waits for every callback
    finally:
        reporter.stop()

    assert [d[0] for d in decoded] == [("frame", 0), ("frame", 1), ("skipped", 2), ("frame", 3), ("frame", 4),
                                       ("frame", 5), "eos"]
    assert decoded[2][1] is None and decoded[-1][1] is None
    for tag, picture in decoded[:-1]:
        if tag[0] == "skipped":
            continue
        width, height, nv12 = picture
        assert (width, height) == (W, H)
        error = np.abs(nv12.astype(int) - frames[tag[1]].astype(int))
        assert error.mean() < 2.0, tag
        # Closer to its own frame than to the neighbours': the pictures come in send order.
        for other in {max(tag[1] - 1, 0), min(tag[1] + 1, FRAMES - 1)} - {tag[1]}:
            assert np.abs(nv12.astype(int) - frames[other].astype(int)).mean() > error.mean() + 2, (tag, other)

    for out, pic, desc in buffers:
        for destroy, handle in ((acl.media.dvpp_destroy_stream_desc, desc), (acl.media.dvpp_destroy_pic_desc, pic),
                                (acl.media.dvpp_free, out)):
            assert destroy(handle) == ACL_SUCCESS
    assert acl.media.dvpp_free(data) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_stream_desc(eos) == ACL_SUCCESS
    assert acl.media.vdec_destroy_frame_config(config) == ACL_SUCCESS
    assert acl.media.vdec_destroy_channel_desc(vdec) == ACL_SUCCESS


def test_send_without_callback_raises_and_params_check_their_values(device):
    vdec = acl.media.vdec_create_channel_desc()
    with pytest.raises(RuntimeError, match="callback"):
        acl.media.vdec_send_frame(vdec, 0, 0, 0, None)
    with pytest.raises(TypeError):
        acl.media.vdec_set_channel_desc_callback(vdec, 42)
    with pytest.raises(TypeError):
        acl.media.vdec_set_channel_desc_param(vdec, CSC_MATRIX_PARAM, -1)
    desc, ret = acl.media.vdec_set_channel_desc_param(vdec, 1, 0)  # no such param type
    assert (desc, ret) == (vdec, 100000) and "ACL_VDEC_CSC_MATRIX_UINT32" in acl.get_recent_err_msg()
    # No channel behind the description: the C call says so.
    assert acl.media.vdec_set_channel_desc_callback(vdec, print) == ACL_SUCCESS
    assert acl.media.vdec_send_frame(vdec, 0, 0, 0, None) == 100000
    assert "aclvdecCreateChannel" in acl.get_recent_err_msg()
    assert acl.media.vdec_destroy_channel_desc(vdec) == ACL_SUCCESS

    channel = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_get_channel_desc_param(channel, CSC_MATRIX_PARAM)[2] == ACL_SUCCESS
    assert acl.media.dvpp_set_channel_desc_param(channel, CSC_MATRIX_PARAM, ACL_DVPP_CSC_MATRIX_BT709_NARROW) == \
        (channel, ACL_SUCCESS)
    assert acl.media.dvpp_get_channel_desc_param(channel, CSC_MATRIX_PARAM) == \
        (4, ACL_DVPP_CSC_MATRIX_BT709_NARROW, ACL_SUCCESS)
    assert acl.media.dvpp_destroy_channel_desc(channel) == ACL_SUCCESS
