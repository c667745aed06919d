"""No module of ours takes another's private name (issue 33): a name that starts with one underscore belongs to
its module; a module that needs it from another makes it public there or moves the code to the side that owns it.

Read from the source (ast, no import): ``from X import _name``, ``from X import _module``, ``X._name`` and
``Y._name``, where X is one of the project's own modules and Y a name imported from one (a class: its private
methods are its module's). Django's private names (``_meta``, ``_default_manager``, ...) are not ours, even on
our models. The tests and the migrations are not looked at."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bench", "common", "config", "demo", "infra", "rulings", "scoring", "tools", "tournament")
SKIPPED_DIRS = {"tests", "migrations", "__pycache__"}
DJANGO_PRIVATE = {"_meta", "_default_manager", "_base_manager", "_state"}  # Django's, on our models


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources(root: Path) -> list[Path]:
    return sorted(p for package in PACKAGES for p in (root / package).rglob("*.py")
                  if not SKIPPED_DIRS & set(p.relative_to(root).parts))


def cross_module_private_uses(source: str, module: str, is_package: bool, modules: set[str]) -> list[str]:
    """Every use in ``source`` (the text of ``module``) of another of ``modules``' private names."""
    package = module if is_package else module.rpartition(".")[0]
    tree = ast.parse(source)
    aliases: dict[str, str] = {}  # a local name -> the module of ours it names
    imported: dict[str, str] = {}  # a local name -> the name of one of our modules it is (a class, ...)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            if origin.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                if f"{origin}.{alias.name}" in modules:
                    aliases[alias.asname or alias.name] = f"{origin}.{alias.name}"
                elif origin != module:
                    imported[alias.asname or alias.name] = f"{origin}.{alias.name}"
                if _private(alias.name) and origin != module:
                    found.append(f"line {node.lineno}: from {origin} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    local = alias.asname or alias.name.split(".")[0]
                    aliases[local] = alias.name if alias.asname else local
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            chain, value = [], node.value
            while isinstance(value, ast.Attribute):
                chain.insert(0, value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in aliases:
                target = ".".join([aliases[value.id], *chain])
                if target != module:
                    found.append(f"line {node.lineno}: {target}.{node.attr}")
            elif isinstance(value, ast.Name) and value.id in imported and node.attr not in DJANGO_PRIVATE:
                found.append(f"line {node.lineno}: {'.'.join([imported[value.id], *chain])}.{node.attr}")
    return found


def test_the_detector_finds_each_kind_of_use():
    modules = {"scoring", "scoring.ledger", "tournament.records.hands", "tournament", "tournament.engines.swiss"}
    source = "\n".join([
        "from scoring.ledger import _replay, public",
        "from . import _helpers",
        "from .ledger import _one as one",
        "import tournament.engines.swiss as sw",
        "from tournament.records import hands",
        "sw._match(hands._seat, self._own, public._x)",
        "from django.db import _private_of_django",
        "model._meta.fields",
        "from tournament.records.hands import __all__",
        "from scoring.ledger import Ledger",
        "Ledger._replay(Ledger._meta, Ledger.__name__)",
    ])
    found = cross_module_private_uses(source, "scoring.engine", False, modules)
    assert len(found) == 7 and set(found) == {
        "line 1: from scoring.ledger import _replay", "line 2: from scoring import _helpers",
        "line 3: from scoring.ledger import _one", "line 6: tournament.engines.swiss._match", "line 6: tournament.records.hands._seat",
        "line 6: scoring.ledger.public._x", "line 11: scoring.ledger.Ledger._replay"}
    assert cross_module_private_uses("from .ledger import _own\n_own()", "scoring.ledger", False, modules) == []


def test_no_module_takes_another_modules_private_name():
    sources = _sources(ROOT)
    modules = {_module_name(p, ROOT) for p in sources} | set(PACKAGES)
    found = [f"{path.relative_to(ROOT)} {use}" for path in sources
             for use in cross_module_private_uses(path.read_text(encoding="utf-8"), _module_name(path, ROOT),
                                                  path.name == "__init__.py", modules)]
    assert not found, "make each name public in its module, or move the code to the module that owns it:\n" + \
        "\n".join(found)
