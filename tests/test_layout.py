"""The engine's imports form no circle and go only down the stages of the pipeline.

The stages, bottom first: model < load < validate < derive < charts < render < publish
< pipeline < record, watch, scaffold, outcome < cli (and tools/, for the repository's own
docs and editors). errors, cache, collector, fork, regular and characters are helpers every
stage may use, the model too; they import only each other (so they stand below the model,
and no circle goes through them and the model). Every import counts, also one inside a function
or under `if TYPE_CHECKING:`: it is still a dependency a reader has to follow. And no
module binds a name to a table that can change (state every build of a process shares).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "progress_site"
STAGES = ("model", "load", "validate", "derive", "charts", "render", "publish", "pipeline",
          ("record", "watch", "scaffold", "outcome"), ("cli", "tools", "progress_site"), "__main__")
SHARED = ("errors", "cache", "collector", "fork", "regular", "engine_theme", "characters")



def module_name(path: Path) -> str:
    """`progress_site.load.site` for load/site.py, `progress_site.derive` for its __init__."""
    parts = ("progress_site", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def short(module: str) -> str:
    """A module's name within the engine: `load.site`."""
    return module.removeprefix("progress_site.")


def imported(path: Path, modules: set[str]) -> Iterator[str]:
    """The engine's modules that one module imports, wherever the import stands."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, source] if source else base)
            # `from progress_site.render import words` imports the module render.words.
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                       else source for alias in node.names]
        else:
            continue
        yield from (short(t) for t in targets if t in modules and t != name)


def import_graph() -> dict[str, set[str]]:
    """Each module of the engine and the modules of the engine it imports."""
    paths = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    return {short(name): set(imported(path, set(paths))) for name, path in paths.items()}


GRAPH = import_graph()


def stage(module: str) -> str:
    """The stage folder (or top-level module) a module belongs to."""
    return module.split(".", 1)[0]


def level(module: str) -> int:
    """How high a module's stage stands: a stage may import only from lower ones."""
    top = stage(module)
    for height, names in enumerate(STAGES):
        if top == names or top in names:
            return height
    raise AssertionError(f"{module}: in no stage; add its folder to STAGES or SHARED")


def allowed(importer: str, imported_module: str) -> bool:
    """Whether one import goes down the stages (or stays within one stage)."""
    if stage(imported_module) in SHARED:
        return True
    if stage(importer) in SHARED:
        return False
    return stage(importer) == stage(imported_module) or level(imported_module) < level(importer)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import one another, round in a circle (Tarjan)."""
    order: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = lowest[module] = len(order)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in order:
                visit(other)
                lowest[module] = min(lowest[module], lowest[other])
            elif other in stack:
                lowest[module] = min(lowest[module], order[other])
        if lowest[module] == order[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_no_import_circle() -> None:
    assert circles(GRAPH) == []


def test_imports_go_down_the_stages() -> None:
    upward = sorted(f"{module} imports {target}"
                    for module, targets in GRAPH.items()
                    for target in targets if not allowed(module, target))
    assert upward == []


def test_the_check_sees_circles_and_upward_imports() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    assert not allowed("load.site", "render.words")
    assert not allowed("errors", "derive.views")
    assert allowed("derive.views", "model.schema") and allowed("load.site", "errors")
    assert allowed("render.words", "render.markdown") and allowed("cli", "watch.loop")
    assert not allowed("record.commands", "watch.loop")
    assert "derive.views" in GRAPH["derive.site"]  # the import graph is read at all
    assert "render.formatting" in GRAPH["render.words"]  # `from x import module` counts


MUTABLE_CALLS = frozenset({"dict", "list", "set", "bytearray", "defaultdict", "OrderedDict",
                           "Counter", "deque", "ChainMap"})


def mutable_tables(source: str) -> list[str]:
    """The names a module binds, at its top, to a container that can change (a dict, list
    or set, written out or called): state every build of a process would share. `__all__`
    is allowed, and so is a library's class attribute set there (PyYAML's resolvers)."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        called = value.func if isinstance(value, ast.Call) else None
        name = getattr(called, "id", getattr(called, "attr", None))
        if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp,
                              ast.SetComp)) or name in MUTABLE_CALLS:
            found += [f"line {node.lineno}: {target.id}" for target in targets
                      if isinstance(target, ast.Name) and target.id != "__all__"]
    return found


def test_no_module_level_mutable_table() -> None:
    """A module's constant tables are read-only (`MappingProxyType`, `frozenset`, tuples)
    or made in the function that uses them."""
    found = [f"{short(module_name(path))}: {table}"
             for path in sorted(PACKAGE.rglob("*.py"))
             for table in mutable_tables(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_check_sees_mutable_tables() -> None:
    assert mutable_tables("A = {}\nB: list[int] = []\nC = {1}\nD = dict(a=1)\n"
                          "E = collections.defaultdict(list)\nF = [x for x in ()]\n") == [
        "line 1: A", "line 2: B", "line 3: C", "line 4: D", "line 5: E", "line 6: F"]
    assert mutable_tables("__all__ = ['a']\nA = (1,)\nB = frozenset({1})\n"
                          "C = MappingProxyType({'a': 1})\ndef f():\n    d = {}\n"
                          "K.table = {}\n") == []
