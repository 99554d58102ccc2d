"""``companion/rules`` stays pure: standard library only; no I/O, clocks, threads or chance."""

import ast
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).parent.parent / "companion" / "rules"
FORBIDDEN_MODULES = {
    "asyncio", "datetime", "io", "multiprocessing", "os", "pathlib", "random", "select",
    "shutil", "signal", "socket", "subprocess", "sys", "tempfile", "threading", "time",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_module_is_pure(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [] if node.level else [node.module or ""]
        else:
            names = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno}"
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
            assert top not in FORBIDDEN_MODULES, f"{path.name} imports {name}"
