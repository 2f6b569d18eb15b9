#!/usr/bin/env python3
"""The stand-in ONNX models docs/samples.md's runs of Huawei's samples used: each has the input
and output names, shapes and dtypes of the sample's real network (which cannot be downloaded
here), a few small layers and fixed seeded weights, so a sample's results can be checked against
numpy. Not part of the test suite. Needs python3-onnx (Debian).

usage: stand_in_models.py OUTPUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh

OUT = sys.argv[1] if len(sys.argv) == 2 else sys.exit(__doc__)
os.makedirs(OUT, exist_ok=True)

def save(name, nodes, inputs, outputs, inits):
    g = h.make_graph(nodes, name, inputs, outputs, inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, name + ".onnx"))

rng = np.random.default_rng(0)
def classifier(name, batch, hw=(224, 224)):
    w = nh.from_array(rng.standard_normal((1000, 3)).astype(np.float32), "fc_w")
    b = nh.from_array(rng.standard_normal(1000).astype(np.float32), "fc_b")
    nodes = [h.make_node("GlobalAveragePool", ["data"], ["gap"], name="pool"),
             h.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
             h.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1),
             h.make_node("Softmax", ["logits"], ["prob"], name="prob", axis=1)]
    save(name, nodes, [h.make_tensor_value_info("data", T.FLOAT, [batch, 3, *hw])],
         [h.make_tensor_value_info("prob", T.FLOAT, [batch, 1000])], [w, b])

classifier("resnet50", 1)
classifier("googlenet_dyn", "N")
classifier("googlenet_2", 2)

# yolov3-like: data [N,3,H,W], img_info [N,4] -> box_out [N,7] (pooled pixels and img_info)
# (box_out = [pooled * scale, img_info], scale = 1, 2, 3: a weight, as the real model has)
scale = nh.from_array(np.array([1, 2, 3], np.float32), "scale")
nodes = [h.make_node("GlobalAveragePool", ["data"], ["gap"], name="pool"),
         h.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
         h.make_node("Mul", ["flat", "scale"], ["scaled"], name="scale_mul"),
         h.make_node("Concat", ["scaled", "img_info"], ["box_out"], name="box_out", axis=1)]
save("yolov3_batch", nodes, [h.make_tensor_value_info("data", T.FLOAT, ["N", 3, 416, 416]),
                             h.make_tensor_value_info("img_info", T.FLOAT, ["N", 4])],
     [h.make_tensor_value_info("box_out", T.FLOAT, ["N", 7])], [scale])
save("yolov3_hw", nodes, [h.make_tensor_value_info("data", T.FLOAT, [1, 3, "H", "W"]),
                          h.make_tensor_value_info("img_info", T.FLOAT, [1, 4])],
     [h.make_tensor_value_info("box_out", T.FLOAT, [1, 7])], [scale])

# A TensorFlow ResNet-50's ONNX export keeps its NHWC input: Placeholder [1, H, W, 3].
w = nh.from_array(rng.standard_normal((1000, 3)).astype(np.float32), "fc_w")
b = nh.from_array(rng.standard_normal(1000).astype(np.float32), "fc_b")
nodes = [h.make_node("Transpose", ["Placeholder"], ["nchw"], name="to_nchw", perm=[0, 3, 1, 2]),
         h.make_node("GlobalAveragePool", ["nchw"], ["gap"], name="pool"),
         h.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
         h.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1)]
save("resnet50_tf_nhwc", nodes, [h.make_tensor_value_info("Placeholder", T.FLOAT, [1, "H", "W", 3])],
     [h.make_tensor_value_info("logits", T.FLOAT, [1, 1000])], [w, b])  # logits, as the TF model's

# A MindSpore CIFAR-10 classifier's ONNX export: x [1, 3, 224, 224] -> logits [1, 10].
w = nh.from_array(rng.standard_normal((10, 3)).astype(np.float32), "fc_w")
b = nh.from_array(rng.standard_normal(10).astype(np.float32), "fc_b")
nodes = [h.make_node("GlobalAveragePool", ["x"], ["gap"], name="pool"),
         h.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
         h.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1)]
save("cifar10", nodes, [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 224, 224])],
     [h.make_tensor_value_info("logits", T.FLOAT, [1, 10])], [w, b])

# A BERT text classifier's ONNX export (tf2onnx keeps TF's node names): input_1, input_2
# [1, 300] float32 -> dense_1/Softmax [1, 5].
w = nh.from_array((rng.standard_normal((5, 2)) / 1000).astype(np.float32), "dense_w")
b = nh.from_array(rng.standard_normal(5).astype(np.float32), "dense_b")
nodes = [h.make_node("ReduceMean", ["input_1"], ["m1"], name="mean_1", axes=[1], keepdims=1),
         h.make_node("ReduceMean", ["input_2"], ["m2"], name="mean_2", axes=[1], keepdims=1),
         h.make_node("Concat", ["m1", "m2"], ["feat"], name="concat", axis=1),
         h.make_node("Gemm", ["feat", "dense_w", "dense_b"], ["logits"], name="dense_1/BiasAdd", transB=1),
         h.make_node("Softmax", ["logits"], ["dense_1/Softmax:0"], name="dense_1/Softmax", axis=1)]
save("bert_text_classification", nodes, [h.make_tensor_value_info("input_1", T.FLOAT, [1, 300]),
                                         h.make_tensor_value_info("input_2", T.FLOAT, [1, 300])],
     [h.make_tensor_value_info("dense_1/Softmax:0", T.FLOAT, [1, 5])], [w, b])

# LeNet (MNIST) as a MindSpore model's ONNX export: x [1, 1, 32, 32] -> [1, 10].
w = nh.from_array(rng.standard_normal((10, 1)).astype(np.float32), "fc_w")
b = nh.from_array(rng.standard_normal(10).astype(np.float32), "fc_b")
nodes = [h.make_node("GlobalAveragePool", ["x"], ["gap"], name="pool"),
         h.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
         h.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1)]
save("mnist", nodes, [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 32, 32])],
     [h.make_tensor_value_info("logits", T.FLOAT, [1, 10])], [w, b])

# Colorization (Caffe, converted to ONNX): data_l [1, 1, 224, 224] -> class8_ab [1, 2, 56, 56]:
# a 4x4 average pool and a 1x1 convolution to two channels.
cw = nh.from_array(np.array([[[[0.8]]], [[[-0.6]]]], np.float32), "conv_w")
cb = nh.from_array(np.array([5, -3], np.float32), "conv_b")
nodes = [h.make_node("AveragePool", ["data_l"], ["pooled"], name="pool", kernel_shape=[4, 4], strides=[4, 4]),
         h.make_node("Conv", ["pooled", "conv_w", "conv_b"], ["class8_ab"], name="class8_ab", kernel_shape=[1, 1])]
save("colorization", nodes, [h.make_tensor_value_info("data_l", T.FLOAT, [1, 1, 224, 224])],
     [h.make_tensor_value_info("class8_ab", T.FLOAT, [1, 2, 56, 56])], [cw, cb])

# A style-transfer network (TF, exported NCHW as the sample's "nchw_no_aipp" models are):
# [1, 3, 720, 1080] -> [1, 3, 360, 540]: a 2x2 average pool and a 1x1 colour-mixing convolution.
sw = nh.from_array(np.array([[0.5, 0.3, 0.1], [0.1, 0.6, 0.2], [0.2, 0.1, 0.7]], np.float32).reshape(3, 3, 1, 1), "mix_w")
nodes = [h.make_node("AveragePool", ["input"], ["half"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
         h.make_node("Conv", ["half", "mix_w"], ["output"], name="mix", kernel_shape=[1, 1])]
save("style", nodes, [h.make_tensor_value_info("input", T.FLOAT, [1, 3, 720, 1080])],
     [h.make_tensor_value_info("output", T.FLOAT, [1, 3, 360, 540])], [sw])

# HiFill (TF, its ONNX export keeps NHWC): img [1,512,512,3], mask [1,512,512,1] ->
# inpainted [1,512,512,3] = 0.9 img + 10, attention [1,1024,1024] = softmax over keys of
# (pooled brightness of patch q) * key weight k, mask_new = mask.
kw = nh.from_array((np.arange(1024, dtype=np.float32) / 1024).reshape(1, 1, 1024), "key_w")
sc = nh.from_array(np.array([0.9], np.float32), "s09")
of = nh.from_array(np.array([10], np.float32), "o10")
one = nh.from_array(np.array([1], np.float32), "one")
shp = nh.from_array(np.array([1, 1024, 1], np.int64), "q_shape")
nodes = [h.make_node("Mul", ["img", "s09"], ["scaled"], name="scale"),
         h.make_node("Add", ["scaled", "o10"], ["inpainted"], name="inpainted"),
         h.make_node("Transpose", ["img"], ["img_nchw"], name="to_nchw", perm=[0, 3, 1, 2]),
         h.make_node("AveragePool", ["img_nchw"], ["patches"], name="patch_pool", kernel_shape=[16, 16], strides=[16, 16]),
         h.make_node("ReduceMean", ["patches"], ["bright"], name="bright", axes=[1], keepdims=1),
         h.make_node("Reshape", ["bright", "q_shape"], ["q"], name="q"),
         h.make_node("Mul", ["q", "key_w"], ["scores"], name="scores"),
         h.make_node("Softmax", ["scores"], ["attention"], name="attention", axis=-1),
         h.make_node("Mul", ["mask", "one"], ["mask_new"], name="mask_new")]
save("hifill", nodes, [h.make_tensor_value_info("img", T.FLOAT, [1, 512, 512, 3]),
                       h.make_tensor_value_info("mask", T.FLOAT, [1, 512, 512, 1])],
     [h.make_tensor_value_info("inpainted", T.FLOAT, [1, 512, 512, 3]),
      h.make_tensor_value_info("attention", T.FLOAT, [1, 1024, 1024]),
      h.make_tensor_value_info("mask_new", T.FLOAT, [1, 512, 512, 1])], [kw, sc, of, one, shp])
