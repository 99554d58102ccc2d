"""The package's shape: layers whose imports point down only, and no import cycle.

Every import statement counts, late ones inside functions included: a cycle that only
shows at run time is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "companion"

# Each layer may import the layers listed for it, and nothing else of the companion.
# ``errors`` is the shared kernel (the one exception base class, message clipping): every
# layer may import it, and it imports nothing of the companion.
KERNEL = "errors"
ALLOWED = {
    KERNEL: set(),
    "rules": set(),
    "game": {"rules"},
    "table": {"rules", "game"},
    "ui": {"rules", "game", "table"},
    "hw": {"rules", "table"},  # adapters: they put table events on the queue
    "sim": {"rules", "table", "hw"},  # simulated parts, under the real adapters
    "storage": {"rules", "game"},
    # the page for phones, under app (which opens it as a watcher of the table): it reads
    # views, settings and the history
    "web": {"rules", "game", "table", "ui", "storage"},
    "app": {"rules", "game", "table", "ui", "hw", "sim", "storage", "web"},
    "cli": {"rules", "game", "table", "ui", "hw", "sim", "storage", "app", "web"},
    "": {"cli"},  # companion/__init__.py and __main__.py
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> set[str]:
    """The companion modules ``name`` imports, anywhere in its body."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # "from pkg import mod" imports the module pkg.mod where there is one
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names
            ]
        else:
            continue
        found |= {t for t in targets if t in MODULES and t != name}
    return found


GRAPH = {name: imports(name) for name in MODULES}


def layer(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else ""


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down(name):
    mine = layer(name)
    for target in GRAPH[name]:
        if target == "companion":  # the root holds the version and imports nothing
            continue
        theirs = layer(target)
        allowed = theirs in (mine, KERNEL) or theirs in ALLOWED[mine]
        assert allowed, f"{name} imports {target}"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a path that comes back to its start, or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for target in sorted(graph[name]):
            if cycle := visit(target, [*path, name]):
                return cycle
        done.add(name)
        return None

    return next((c for name in sorted(graph) if (c := visit(name, []))), None)


def test_no_module_imports_another_in_a_cycle():
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_the_checker_sees_late_and_relative_imports_and_cycles():
    assert "companion.rules" in GRAPH["companion.game.record"]
    assert "companion.rules.errors" in GRAPH["companion.rules"]
    assert "companion.errors" in GRAPH["companion.rules.errors"]
    assert "companion.cli" in GRAPH["companion.__main__"]
    assert "companion.game.jsontext" in GRAPH["companion.game.boards"]
    made_up = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(made_up) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
