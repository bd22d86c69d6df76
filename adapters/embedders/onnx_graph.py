"""A BERT encoder written as an ONNX graph from safetensors weights, with the `onnx` library only.

The graph is the Hugging Face `BertModel` forward pass in eval mode (absolute positions, exact
GELU, post-layer-norm), returning the last hidden state as `token_embeddings` [batch, sequence,
hidden]; mean pooling and normalisation stay in numpy (`onnx_runtime`). MatMul weights are stored
transposed as initialisers, so ONNX Runtime's dynamic int8 quantiser finds them as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from adapters.embedders.base import ModelNotAvailableError

OPSET = 17
"""LayerNormalization is an ONNX operator from opset 17 on."""


class UnsupportedArchitectureError(ModelNotAvailableError):
    """The model is not a plain BERT encoder that `build_bert_graph` reproduces."""


@dataclass(frozen=True)
class BertShape:
    """The sizes the graph needs, read from the model's `config.json`."""

    layers: int
    hidden: int
    heads: int
    max_positions: int
    eps: float

    @classmethod
    def from_config(cls, config: dict[str, object], source: Path) -> BertShape:
        """Read and check `config`; raises for anything but absolute-position BERT with exact GELU."""
        model_type = str(config.get("model_type", ""))
        activation = str(config.get("hidden_act", "gelu"))
        positions = str(config.get("position_embedding_type", "absolute"))
        if model_type != "bert" or activation != "gelu" or positions != "absolute":
            raise UnsupportedArchitectureError(
                f"the ONNX encoder builds plain BERT models (gelu, absolute positions); {source} is "
                f"{model_type or 'unknown'} ({activation}, {positions}): set THREADWISE_ENCODER=torch "
                "(pip install 'threadwise[torch]')"
            )

        def number(name: str) -> float:
            value = config.get(name)
            if not isinstance(value, int | float):
                raise UnsupportedArchitectureError(f"{source}/config.json has no number {name!r}")
            return float(value)

        shape = cls(
            layers=int(number("num_hidden_layers")),
            hidden=int(number("hidden_size")),
            heads=int(number("num_attention_heads")),
            max_positions=int(number("max_position_embeddings")),
            eps=number("layer_norm_eps") if "layer_norm_eps" in config else 1e-12,
        )
        if shape.hidden % shape.heads:
            raise UnsupportedArchitectureError(f"{source}: hidden size {shape.hidden} is not a multiple of the heads")
        return shape


def _weights(path: Path) -> dict[str, npt.NDArray[np.float32]]:
    """Every tensor of a safetensors file as float32, with any `bert.` prefix dropped."""
    from safetensors.numpy import load_file

    tensors = load_file(str(path))
    return {
        name.removeprefix("bert."): np.ascontiguousarray(value, dtype=np.float32)
        for name, value in tensors.items()
        if np.issubdtype(value.dtype, np.floating)
    }


def build_bert_graph(weights_file: Path, shape: BertShape, target: Path) -> None:
    """Write the ONNX model of the BERT encoder in `weights_file` to `target`."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    weights = _weights(weights_file)
    initializers: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def const(name: str, value: npt.NDArray[np.generic]) -> str:
        initializers.append(numpy_helper.from_array(value, name))
        return name

    def weight(name: str, transpose: bool = False) -> str:
        try:
            value = weights[name]
        except KeyError as exc:
            raise UnsupportedArchitectureError(f"{weights_file} has no tensor {name!r}") from exc
        return const(name, np.ascontiguousarray(value.T) if transpose else value)

    def node(op: str, inputs: list[str], output: str, **attributes: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [output], name=output, **attributes))
        return output

    def dense(x: str, prefix: str, out: str) -> str:
        product = node("MatMul", [x, weight(f"{prefix}.weight", transpose=True)], f"{out}/matmul")
        return node("Add", [product, weight(f"{prefix}.bias")], out)

    def layer_norm(x: str, prefix: str, out: str) -> str:
        gamma, beta = weight(f"{prefix}.weight"), weight(f"{prefix}.bias")
        return node("LayerNormalization", [x, gamma, beta], out, axis=-1, epsilon=shape.eps)

    head_size = shape.hidden // shape.heads
    split_heads = const("shape/heads", np.array([0, 0, shape.heads, head_size], dtype=np.int64))
    merge_heads = const("shape/hidden", np.array([0, 0, shape.hidden], dtype=np.int64))
    scale = const("attention/scale", np.array(1.0 / math.sqrt(head_size), dtype=np.float32))
    one = const("one", np.array(1.0, dtype=np.float32))
    half = const("half", np.array(0.5, dtype=np.float32))
    sqrt2 = const("sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
    lowest = const("mask/lowest", np.array(np.finfo(np.float32).min, dtype=np.float32))

    # Embeddings: words + positions 0..S-1 + token types, then layer norm.
    words = node("Gather", [weight("embeddings.word_embeddings.weight"), "input_ids"], "embeddings/words")
    ids_shape = node("Shape", ["input_ids"], "embeddings/ids_shape")
    length = node("Gather", [ids_shape, const("index/1", np.array(1, dtype=np.int64))], "embeddings/length", axis=0)
    positions = node(
        "Range",
        [const("zero/int", np.array(0, dtype=np.int64)), length, const("one/int", np.array(1, dtype=np.int64))],
        "embeddings/position_ids",
    )
    position_vectors = node(
        "Gather", [weight("embeddings.position_embeddings.weight"), positions], "embeddings/positions"
    )
    types = node("Gather", [weight("embeddings.token_type_embeddings.weight"), "token_type_ids"], "embeddings/types")
    summed = node("Add", [node("Add", [words, position_vectors], "embeddings/sum1"), types], "embeddings/sum")
    hidden = layer_norm(summed, "embeddings.LayerNorm", "embeddings/out")

    # The additive mask [B, 1, 1, S]: 0 where attended, the lowest float where padded (as HF's eager path).
    mask_float = node("Cast", ["attention_mask"], "mask/float", to=TensorProto.FLOAT)
    inverted = node("Sub", [one, mask_float], "mask/inverted")
    additive = node("Mul", [inverted, lowest], "mask/additive")
    mask = node("Unsqueeze", [additive, const("axes/1,2", np.array([1, 2], dtype=np.int64))], "mask/4d")

    for i in range(shape.layers):
        p, n = f"encoder.layer.{i}", f"layer{i}"

        def heads(x: str, kind: str, perm: list[int], p: str = p, n: str = n) -> str:
            projected = dense(x, f"{p}.attention.self.{kind}", f"{n}/{kind}")
            split = node("Reshape", [projected, split_heads], f"{n}/{kind}/split")
            return node("Transpose", [split], f"{n}/{kind}/heads", perm=perm)

        query = heads(hidden, "query", [0, 2, 1, 3])
        key = heads(hidden, "key", [0, 2, 3, 1])
        value = heads(hidden, "value", [0, 2, 1, 3])
        scores = node("Mul", [node("MatMul", [query, key], f"{n}/scores/raw"), scale], f"{n}/scores/scaled")
        probabilities = node("Softmax", [node("Add", [scores, mask], f"{n}/scores")], f"{n}/probabilities", axis=-1)
        context = node("MatMul", [probabilities, value], f"{n}/context/heads")
        context = node("Transpose", [context], f"{n}/context/split", perm=[0, 2, 1, 3])
        context = node("Reshape", [context, merge_heads], f"{n}/context")
        attended = dense(context, f"{p}.attention.output.dense", f"{n}/attention/dense")
        attended = node("Add", [attended, hidden], f"{n}/attention/residual")
        attended = layer_norm(attended, f"{p}.attention.output.LayerNorm", f"{n}/attention/out")
        inner = dense(attended, f"{p}.intermediate.dense", f"{n}/intermediate/dense")
        # Exact GELU: 0.5 * x * (1 + erf(x / sqrt(2))).
        erf = node("Erf", [node("Div", [inner, sqrt2], f"{n}/gelu/scaled")], f"{n}/gelu/erf")
        gate = node("Mul", [node("Add", [erf, one], f"{n}/gelu/plus1"), half], f"{n}/gelu/gate")
        activated = node("Mul", [inner, gate], f"{n}/gelu")
        output = dense(activated, f"{p}.output.dense", f"{n}/output/dense")
        output = node("Add", [output, attended], f"{n}/output/residual")
        hidden = layer_norm(output, f"{p}.output.LayerNorm", f"{n}/out" if i < shape.layers - 1 else "token_embeddings")

    def tensor(name: str, kind: int, dims: list[str | int]) -> onnx.ValueInfoProto:
        return helper.make_tensor_value_info(name, kind, dims)

    inputs = [tensor(name, TensorProto.INT64, ["batch", "sequence"]) for name in ("input_ids", "attention_mask")]
    inputs.append(tensor("token_type_ids", TensorProto.INT64, ["batch", "sequence"]))
    outputs = [tensor("token_embeddings", TensorProto.FLOAT, ["batch", "sequence", shape.hidden])]
    graph = helper.make_graph(nodes, "bert_encoder", inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="threadwise")
    onnx.checker.check_model(model)
    onnx.save(model, str(target))
