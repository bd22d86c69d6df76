"""A one-off ONNX build of a local sentence-transformers model (and its int8 copy), cached beside the data.

The graph is written with the `onnx` library from the model's `model.safetensors` weights
(`onnx_graph`): no PyTorch is imported or installed. Reading an existing export (`find_export`)
imports neither `onnx` nor the weights, so the serving path pays only for ONNX Runtime.

Why not `torch.onnx.export` (what this module did before): it needs PyTorch, whose PyPI build on
Linux is several GB of CUDA libraries that a CPU bot never uses. Why not a package shipping an ONNX
file: none here ships this model's fp32 graph with its tokenizer from a known source; building it
from the same weights keeps one provenance, and the contract suite compares its vectors with
sentence-transformers' (cosine >= 0.999).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

from pydantic import BaseModel

from adapters.embedders.base import ModelNotAvailableError

log = logging.getLogger(__name__)

EXPORT_FORMAT = 2
"""Bumped whenever the exported files change, so every cached export is redone."""

FP32_FILE = "model.onnx"
INT8_FILE = "model_int8.onnx"
TOKENIZER_FILE = "tokenizer.json"
MANIFEST_FILE = "export.json"
_SOURCE_FILES = (
    "config.json",
    "model.safetensors",
    "pytorch_model.bin",
    "tokenizer.json",
    "modules.json",
    "sentence_bert_config.json",
)


class UnsupportedModelError(ModelNotAvailableError):
    """The model does something the ONNX encoder does not reproduce (not mean pooling, extra layers)."""


class ExportManifest(BaseModel):
    """What an export was made from and how to feed it."""

    format: int
    fingerprint: str
    source: str
    max_seq_length: int
    dimension: int
    do_lower_case: bool
    inputs: list[str]


def export_folder(models_dir: Path, model_name: str) -> Path:
    """Where the export of `model_name` lives under the models directory."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model_name.strip("/")).strip("_") or "model"
    return models_dir / slug


def fingerprint(source: Path) -> str:
    """A cheap identity of the source weights and configuration (names, sizes, modification times)."""
    digest = hashlib.sha256(f"format {EXPORT_FORMAT}\n{source.resolve()}\n".encode())
    for name in _SOURCE_FILES:
        path = source / name
        if path.exists():
            stat = path.stat()
            digest.update(f"{name} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def find_export(folder: Path, source: Path) -> ExportManifest | None:
    """The manifest of a complete, current export in `folder`, or None."""
    try:
        manifest = ExportManifest.model_validate_json((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if manifest.format != EXPORT_FORMAT or manifest.fingerprint != fingerprint(source):
        return None
    if not (folder / FP32_FILE).exists() or not (folder / TOKENIZER_FILE).exists():
        return None
    return manifest


def _read_json(path: Path) -> dict[str, object]:
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def _check_layout(source: Path) -> dict[str, object]:
    """The sentence-transformers settings of `source`; raises when the ONNX encoder cannot reproduce it."""
    modules_path = source / "modules.json"
    modules = json.loads(modules_path.read_text(encoding="utf-8")) if modules_path.exists() else []
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    unsupported = [k for k in kinds if k not in {"Transformer", "Pooling", "Normalize"}]
    if unsupported or (modules and kinds[:1] != ["Transformer"]):
        raise UnsupportedModelError(
            f"the ONNX encoder cannot reproduce modules {unsupported or kinds} of {source}; "
            "set THREADWISE_ENCODER=torch (pip install 'threadwise[torch]')"
        )
    for module in modules:
        if str(module.get("type", "")).endswith("Pooling"):
            pooling = _read_json(source / str(module.get("path", "")) / "config.json")
            modes = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v]
            if modes != ["pooling_mode_mean_tokens"]:
                raise UnsupportedModelError(
                    f"the ONNX encoder does mean pooling only, {source} uses {modes}; "
                    "set THREADWISE_ENCODER=torch (pip install 'threadwise[torch]')"
                )
    if not (source / TOKENIZER_FILE).exists():
        raise UnsupportedModelError(
            f"{source} has no {TOKENIZER_FILE} (a fast tokenizer); "
            "set THREADWISE_ENCODER=torch (pip install 'threadwise[torch]')"
        )
    return _read_json(source / "sentence_bert_config.json")


def export_model(source: Path, folder: Path) -> ExportManifest:
    """Build the fp32 ONNX graph of `source` in `folder` (replacing a stale export); takes seconds, no PyTorch."""
    from adapters.embedders.onnx_graph import BertShape, build_bert_graph

    settings = _check_layout(source)
    config = _read_json(source / "config.json")
    shape = BertShape.from_config(config, source)
    weights_file = source / "model.safetensors"
    if not weights_file.exists():
        raise UnsupportedModelError(
            f"{source} has no model.safetensors; the ONNX encoder reads safetensors weights only "
            "(or set THREADWISE_ENCODER=torch, which needs pip install 'threadwise[torch]')"
        )
    log.warning("building the embedding model's ONNX graph once (a few seconds), into %s", folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        build_bert_graph(weights_file, shape, staging / FP32_FILE)
        shutil.copyfile(source / TOKENIZER_FILE, staging / TOKENIZER_FILE)
        manifest = ExportManifest(
            format=EXPORT_FORMAT,
            fingerprint=fingerprint(source),
            source=str(source),
            max_seq_length=int(str(settings.get("max_seq_length") or shape.max_positions)),
            dimension=shape.hidden,
            do_lower_case=bool(settings.get("do_lower_case", False)),
            inputs=["input_ids", "attention_mask", "token_type_ids"],
        )
        (staging / MANIFEST_FILE).write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
        staging.chmod(0o755)  # mkdtemp makes it private; the server may run as another user
        shutil.rmtree(folder, ignore_errors=True)
        with contextlib.suppress(OSError):  # another process put a fresh export there first
            staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return manifest


def quantize_model(folder: Path) -> Path:
    """Write the int8 (dynamic, per-channel) copy of the fp32 export in `folder`; returns its path."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    log.warning("quantising the ONNX embedding model to int8 once, in %s", folder)
    target = folder / INT8_FILE
    staging = folder / f".{INT8_FILE}.{os.getpid()}"
    try:
        # Unsigned symmetric per-channel weights on the MatMuls only: signed 8-bit weights
        # saturate on AVX2 CPUs without VNNI and lose far more accuracy.
        # The quantiser calls logging.warning() on the root logger ("consider pre-processing"),
        # which would install a root handler in a CLI process; a NullHandler keeps it quiet.
        root, quiet = logging.getLogger(), logging.NullHandler()
        root.addHandler(quiet)
        try:
            quantize_dynamic(
                folder / FP32_FILE,
                staging,
                weight_type=QuantType.QUInt8,
                per_channel=True,
                op_types_to_quantize=["MatMul"],
                extra_options={"WeightSymmetric": True},
            )
        finally:
            root.removeHandler(quiet)
        os.replace(staging, target)
    finally:
        staging.unlink(missing_ok=True)
    return target
