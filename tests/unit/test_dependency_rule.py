"""The dependency rule of SPEC section 1, checked on every import statement."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

FORBIDDEN = {
    "core": {
        "slack_bolt",
        "slack_sdk",
        "botbuilder",
        "aiohttp",
        "elasticsearch",
        "sqlalchemy",
        "sentence_transformers",
        "numpy",
        "torch",
        "bots",
        "adapters",
        "storage",
    },
    "adapters": {"bots", "storage"},
    "storage": {"bots", "adapters"},
}

# Beyond the standard library, core imports only these (SPEC section 1): pint, numpy and every
# client stay behind ports; dates in words are read with dateparser against the injected clock,
# sentence boundaries with nupunkt (a Punkt model with no dependencies), word stems with PyStemmer
# (Snowball), defined abbreviations with abbreviation_extractor (Schwartz & Hearst, no dependencies),
# number words ("nine") with text2num (imported as text_to_num; MIT, no dependencies).
CORE_ALLOWED = {
    "core",
    "pydantic",
    "langgraph",
    "langchain_core",
    "langsmith",
    "dateparser",
    "nupunkt",
    "Stemmer",
    "abbreviation_extractor",
    "text_to_num",
}


def imported_roots(path: Path) -> set[str]:
    """Top-level names of every module a file imports."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_what_it_may(package: str) -> None:
    files = sorted((REPO / package).rglob("*.py"))
    assert files, f"no Python files under {package}/"
    violations = {str(path.relative_to(REPO)): sorted(imported_roots(path) & FORBIDDEN[package]) for path in files}
    assert {k: v for k, v in violations.items() if v} == {}


def test_core_imports_only_the_standard_library_and_its_allowed_libraries() -> None:
    allowed = CORE_ALLOWED | set(sys.stdlib_module_names)
    violations = {
        str(path.relative_to(REPO)): sorted(imported_roots(path) - allowed)
        for path in sorted((REPO / "core").rglob("*.py"))
    }
    assert {k: v for k, v in violations.items() if v} == {}


def test_checker_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import sqlalchemy.orm\nfrom slack_bolt import App\nfrom . import sibling\n")
    assert imported_roots(sample) == {"sqlalchemy", "slack_bolt"}
