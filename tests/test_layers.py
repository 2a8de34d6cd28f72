"""The package's folders are its layers, and each imports only downwards (issue 23).

README, "Layout": the values at the top of the package, then ``notation/``, ``engine/``, ``turns/``, the
ability families (``abilities/``), ``search/``, ``render/``, and the interfaces: the command line, the web app
(``web/``, issue 28) and the Python API (``solver/__init__.py``). An import from a folder to one
above it is an arrow that runs back up; imports under ``if TYPE_CHECKING:`` are types only and do not count.
Every import counts, those inside functions too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "solver"
#: Lowest first. A module of the package's top level is a value every layer uses, except the interfaces: the
#: command line and the Python API (the package's own __init__.py), which stand above everything.
LAYERS = ("values", "notation", "engine", "turns", "abilities", "search", "render", "interface")
FOLDERS = {"notation": "notation", "engine": "engine", "turns": "turns", "abilities": "abilities",
           "search": "search", "render": "render",
           # The web app is a second face of the command line's commands, beside it: it runs cli's own handlers, so
           # that its JSON is the command line's by construction, and cli's `serve` starts it.
           "web": "interface",
           "armies": "values", "terrain": "values"}  # data packages: the army files, Babel 13's terrain
COMMAND_LINE = {"cli", "completion", "__main__"}

#: The arrows that run back up on purpose, each with its reason. They are the value types' own faces, as
#: python-chess's ``Board.__str__`` writes FEN: a value written and read as text, and a position's own checks
#: that need what the position derives.
ALLOWED_UPWARD = {
    ("solver.position", "solver.notation.text"):
        "Position.__str__ and Unit.parse: a value written and read in the notation (python-chess's Board.__str__)",
    ("solver.position", "solver.engine.effects"):
        "position_toughness: the New York HQ's bonus is lost while the HQ is netted, and nets are derived",
    ("solver.position", "solver.abilities.terrain_turn"):
        "Position.problems: a unit standing where Babel 13's terrain forbids it is an impossible position",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in FOLDERS:
        return FOLDERS[parts[1]]
    if module == "solver" or (len(parts) > 1 and parts[1] in COMMAND_LINE):
        return "interface"
    return "values"


def _imports(path: Path) -> set[str]:
    """The package's modules that ``path`` imports at run time (inside functions too; not under TYPE_CHECKING)."""
    module = _module_name(path)
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    types_only = {id(node) for branch in ast.walk(tree)
                  if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                  for node in ast.walk(branch)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in types_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("solver"):
                continue
            for alias in node.names:  # `from . import battle` imports the module solver.battle
                candidate = f"{target}.{alias.name}"
                found.add(candidate if _exists(candidate) else target)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("solver")}
    return found


def _exists(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


MODULES = sorted(path for path in PACKAGE.rglob("*.py") if path.name != "_parser.py")  # Lark's generated code


def test_every_module_belongs_to_a_layer() -> None:
    folders = {path.parent.name for path in MODULES if path.parent != PACKAGE}
    assert folders <= set(FOLDERS), f"a folder that is no layer: {sorted(folders - set(FOLDERS))}"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_imports_run_only_downwards(path: Path) -> None:
    module = _module_name(path)
    here = LAYERS.index(_layer(module))
    upward = sorted(target for target in _imports(path)
                    if LAYERS.index(_layer(target)) > here and (module, target) not in ALLOWED_UPWARD)
    assert not upward, f"{module} ({_layer(module)}) imports from a layer above it: {upward}"


def test_the_allowed_upward_imports_are_still_there() -> None:
    """An exception that the code no longer needs is taken off the list, so that the list stays the truth."""
    for (module, target), _reason in ALLOWED_UPWARD.items():
        path = PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")
        assert target in _imports(path), f"{module} no longer imports {target}: drop it from ALLOWED_UPWARD"


def test_the_engine_and_the_turn_rules_name_no_ability_family() -> None:
    """The loops find the families by looking in solver/abilities/ (solver.engine.points.families); none of the
    engine's or the turn rules' modules imports one (DEVELOPERS: "Adding an army should add data and an
    ability module, not edit the loop")."""
    for path in MODULES:
        if _layer(_module_name(path)) in ("engine", "turns"):
            named = sorted(t for t in _imports(path) if t.startswith("solver.abilities"))
            assert not named, f"{_module_name(path)} imports the families {named}"
