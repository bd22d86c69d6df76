"""Files as ingestion meets them: found under folders, named by a stable id, hashed, or unreadable."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path


def discover(paths: Sequence[Path]) -> list[tuple[Path, Path]]:
    """Every non-hidden file under `paths`, sorted, each with the root it was found under."""
    found: list[tuple[Path, Path]] = []
    for root in paths:
        root = root.resolve()
        if root.is_file():
            found.append((root, root.parent))
            continue
        if not root.exists():
            raise FileNotFoundError(f"no such file or folder: {root}")
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(root)
            if path.is_file() and not any(part.startswith(".") for part in relative.parts):
                found.append((path, root))
    return found


def document_id(collection: str, source_path: str) -> str:
    """A stable id for a file in a collection, so a changed file replaces its old version."""
    return hashlib.sha1(f"{collection}\0{source_path}".encode()).hexdigest()[:20]


def unreadable(exc: Exception) -> str:
    """Why a file could not be read, in words: the loader's own reason (the `ValueError`s loaders
    raise say what is wrong and what to do), or what the operating system says."""
    if isinstance(exc, ValueError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"the file cannot be read: {exc.strerror or exc}"
    return f"the file could not be read ({exc})"


def hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
