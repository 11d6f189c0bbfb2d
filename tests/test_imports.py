"""Every module of rocwmma_py imports, and no two import each other, directly or round a
circle: the imports of each module's source (module level and inside functions alike, read
with `ast`) form no cycle among the package's modules."""

import ast
import importlib
import pkgutil
from pathlib import Path

import rocwmma_py


def package_modules() -> dict[str, Path]:
    """Name -> source file of every module of the package, each imported."""
    modules = {"rocwmma_py": Path(rocwmma_py.__file__)}
    for info in pkgutil.walk_packages(rocwmma_py.__path__, "rocwmma_py."):
        modules[info.name] = Path(importlib.import_module(info.name).__file__)
    return modules


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that module `name` imports anywhere in its source: `from .x
    import y` imports x.y if that is a module, else x."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:  # relative: from `package`, level - 1 packages up
                parts = package.split(".")[:package.count(".") + 2 - node.level]
                source = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if submodule in modules else source)
    return found & modules.keys() - {name}


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The import circles: the sets of modules that each reach all the others."""
    reach = {}
    for start in graph:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        reach[start] = seen
    circles = {frozenset({m} | {o for o in reach[m] if m in reach[o]})
               for m in graph if m in reach[m]}
    return sorted((set(c) for c in circles), key=sorted)


def test_every_module_imports_and_no_import_cycle():
    modules = package_modules()
    assert {"rocwmma_py.settings", "rocwmma_py.runtime.stats", "rocwmma_py.arch.models"} \
        <= modules.keys()
    graph = {name: imported(name, path, modules) for name, path in modules.items()}
    assert "rocwmma_py.runtime.engine" in graph["rocwmma_py.runtime.launch"]  # edges are read
    found = cycles(graph)
    assert found == [], found


def test_cycles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [{"a", "b", "c"}]
