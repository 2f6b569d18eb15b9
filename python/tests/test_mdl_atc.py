"""acl.mdl with models converted by openacl's atc: gears (the ascend_mbatch_shape_data input,
set_dynamic_batch_size, get_dynamic_batch, get_cur_output_dims) and static AIPP
(get_aipp_type, get_first_aipp_info, and the model's input equal to numpy's evaluation of
CANN's documented formulas)."""
import os
import subprocess

import numpy as np
import pytest

import acl
from tiny_onnx import add_scale_model

ACL_SUCCESS = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_DATA_WITHOUT_AIPP = 0
ACL_DATA_WITH_STATIC_AIPP = 1
ACL_RGB888_U8 = 3
ACL_ERROR_INVALID_PARAM = 100000

BIAS = np.array([1.0, 2.0, 3.0], dtype=np.float32)


@pytest.fixture
def atc(tmp_path):
    tool = os.environ.get("OPENACL_ATC")
    if not tool:
        pytest.fail("OPENACL_ATC is not set: run the tests through ctest (it names the built atc)")

    def convert(shape, *options):
        onnx = tmp_path / "m.onnx"
        onnx.write_bytes(add_scale_model(shape, BIAS.reshape([1] * (len(shape) - 1) + [3]) if len(shape) == 2
                                         else BIAS.reshape(1, 3, 1, 1), 1.0))
        out = tmp_path / "m"
        run = subprocess.run([tool, f"--model={onnx}", "--framework=5", f"--output={out}",
                              "--soc_version=Ascend310P3", *options], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        return str(out) + ".om"
    return convert


def device_buffer(size):
    ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
    assert ret == ACL_SUCCESS
    return ptr


def dataset_of(sizes):
    ds = acl.mdl.create_dataset()
    ptrs = []
    for size in sizes:
        ptr = device_buffer(size)
        ptrs.append(ptr)
        _, ret = acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, size))
        assert ret == ACL_SUCCESS
    return ds, ptrs


def to_device(ptr, array):
    data = np.ascontiguousarray(array)
    assert acl.rt.memcpy(ptr, data.nbytes, data.ctypes.data, data.nbytes,
                         ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS


def from_device(ptr, count, dtype=np.float32):
    out = np.zeros(count, dtype=dtype)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes,
                         ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    return out


def test_batch_gears(context, atc):
    om = atc((2, 3), "--input_shape=x:-1,3", "--dynamic_batch_size=1,2,4")
    model_id, ret = acl.mdl.load_from_file(om)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == ACL_SUCCESS
    assert acl.mdl.get_num_inputs(desc) == 2
    index, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    assert (index, ret) == (1, ACL_SUCCESS)
    batch, ret = acl.mdl.get_dynamic_batch(desc)
    assert ret == ACL_SUCCESS and batch["batch"] == [1, 2, 4]
    sizes = [acl.mdl.get_input_size_by_index(desc, i) for i in range(2)]
    assert sizes == [4 * 3 * 4, 8]  # the largest gear's
    inputs, in_ptrs = dataset_of(sizes)
    outputs, out_ptrs = dataset_of([acl.mdl.get_output_size_by_index(desc, 0)])
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    to_device(in_ptrs[0], x)
    assert acl.mdl.set_dynamic_batch_size(model_id, inputs, index, 3) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.set_dynamic_batch_size(model_id, inputs, index, 2) == ACL_SUCCESS
    assert from_device(in_ptrs[1], 1, np.uint64).tolist() == [2]
    assert acl.mdl.execute(model_id, inputs, outputs) == ACL_SUCCESS, acl.get_recent_err_msg()
    np.testing.assert_array_equal(from_device(out_ptrs[0], 6).reshape(2, 3), x + BIAS)
    dims, ret = acl.mdl.get_cur_output_dims(desc, 0)
    assert ret == ACL_SUCCESS and dims["dims"] == [2, 3]
    for ptr in in_ptrs + out_ptrs:
        acl.rt.free(ptr)
    acl.mdl.destroy_desc(desc)
    assert acl.mdl.unload(model_id) == ACL_SUCCESS


def test_static_aipp_matches_numpy(context, atc, tmp_path):
    conf = tmp_path / "aipp.cfg"
    conf.write_text("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n rbuv_swap_switch: true\n"
                    " mean_chn_0: 120\n mean_chn_1: 110\n mean_chn_2: 100\n min_chn_1: 0.5\n"
                    " var_reci_chn_0: 0.0171\n var_reci_chn_1: 0.0175\n var_reci_chn_2: 0.0174\n}\n")
    om = atc((1, 3, 4, 5), f"--insert_op_conf={conf}")
    model_id, ret = acl.mdl.load_from_file(om)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    aipp_type, attached, ret = acl.mdl.get_aipp_type(model_id, 0)
    assert (aipp_type, ret) == (ACL_DATA_WITH_STATIC_AIPP, ACL_SUCCESS)
    info, ret = acl.mdl.get_first_aipp_info(model_id, 0)
    assert ret == ACL_SUCCESS
    assert info["inputFormat"] == ACL_RGB888_U8 and info["rbuvSwapSwitch"] == 1
    assert info["meanChn"][:3] == [120, 110, 100]
    assert info["srcSize"] == 4 * 5 * 3 and info["aippOutdims"]["dims"] == [1, 3, 4, 5]

    image = np.random.default_rng(7).integers(0, 256, size=(4, 5, 3), dtype=np.uint8)
    inputs, in_ptrs = dataset_of([image.nbytes])
    outputs, out_ptrs = dataset_of([3 * 4 * 5 * 4])
    to_device(in_ptrs[0], image)
    assert acl.mdl.execute(model_id, inputs, outputs) == ACL_SUCCESS, acl.get_recent_err_msg()
    # CANN's formula after the R/B swap: (pixel - mean - min) * var_reci, per channel.
    swapped = image[:, :, ::-1].astype(np.int32)
    mean = np.array([120, 110, 100], dtype=np.int32)
    minimum = np.array([0, 0.5, 0], dtype=np.float32)
    var = np.array([0.0171, 0.0175, 0.0174], dtype=np.float32)
    want = ((swapped - mean).astype(np.float32) - minimum) * var
    want = want.transpose(2, 0, 1) + BIAS.reshape(3, 1, 1)  # the model adds BIAS
    got = from_device(out_ptrs[0], 60).reshape(3, 4, 5)
    np.testing.assert_array_equal(got, want.astype(np.float32))
    for ptr in in_ptrs + out_ptrs:
        acl.rt.free(ptr)
    assert acl.mdl.unload(model_id) == ACL_SUCCESS


def test_model_without_aipp(context, atc):
    model_id, ret = acl.mdl.load_from_file(atc((2, 3)))
    assert ret == ACL_SUCCESS
    aipp_type, _, ret = acl.mdl.get_aipp_type(model_id, 0)
    assert (aipp_type, ret) == (ACL_DATA_WITHOUT_AIPP, ACL_SUCCESS)
    info, ret = acl.mdl.get_first_aipp_info(model_id, 0)
    assert ret == ACL_ERROR_INVALID_PARAM and info == {}
    assert acl.mdl.unload(model_id) == ACL_SUCCESS


def test_dynamic_aipp_matches_numpy(context, atc, tmp_path):
    conf = tmp_path / "aipp.cfg"
    conf.write_text("aipp_op { aipp_mode: dynamic related_input_rank: 0 max_src_image_size: 300 }\n")
    om = atc((1, 3, 4, 5), f"--insert_op_conf={conf}")
    model_id, ret = acl.mdl.load_from_file(om)
    assert ret == ACL_SUCCESS, acl.get_recent_err_msg()
    aipp_type, attached, ret = acl.mdl.get_aipp_type(model_id, 0)
    assert (aipp_type, attached, ret) == (2, 1, ACL_SUCCESS)  # ACL_DATA_WITH_DYNAMIC_AIPP
    data_size, ret = acl.mdl.get_aipp_data_size(1)
    assert ret == ACL_SUCCESS
    aipp = acl.mdl.create_aipp(1)
    assert acl.mdl.set_aipp_input_format(aipp, ACL_RGB888_U8) == ACL_SUCCESS
    assert acl.mdl.set_aipp_src_image_size(aipp, 7, 6) == ACL_SUCCESS
    assert acl.mdl.set_aipp_crop_params(aipp, 1, 2, 1, 5, 4, 0) == ACL_SUCCESS
    assert acl.mdl.set_aipp_dtc_pixel_mean(aipp, 100, 110, 120, 0, 0) == ACL_SUCCESS
    assert acl.mdl.set_aipp_pixel_var_reci(aipp, 0.5, 0.25, 0.125, 1.0, 0) == ACL_SUCCESS

    image = np.random.default_rng(9).integers(0, 256, size=(6, 7, 3), dtype=np.uint8)
    inputs, in_ptrs = dataset_of([300, data_size])
    outputs, out_ptrs = dataset_of([3 * 4 * 5 * 4])
    to_device(in_ptrs[0], image)
    assert acl.mdl.set_input_aipp(model_id, inputs, 1, aipp) == ACL_SUCCESS, acl.get_recent_err_msg()
    assert acl.mdl.execute(model_id, inputs, outputs) == ACL_SUCCESS, acl.get_recent_err_msg()
    crop = image[1:5, 2:7, :].astype(np.int32)
    want = (crop - np.array([100, 110, 120])).astype(np.float32) * np.array([0.5, 0.25, 0.125], np.float32)
    want = want.transpose(2, 0, 1) + BIAS.reshape(3, 1, 1)
    np.testing.assert_array_equal(from_device(out_ptrs[0], 60).reshape(3, 4, 5), want.astype(np.float32))
    assert acl.mdl.destroy_aipp(aipp) == ACL_SUCCESS
    for ptr in in_ptrs + out_ptrs:
        acl.rt.free(ptr)
    assert acl.mdl.unload(model_id) == ACL_SUCCESS
