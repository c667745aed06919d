"""Every page or API module is one the import contracts see (issue 33): the independence contract in
``.importlinter`` covers the modules named ``views`` or ``api`` or inside a package so named (the wildcards
``**.views`` and ``**.api``) and ``infra.errorpages``, so a view class or a routed module anywhere else would
escape it. Read from the source (ast): the project's modules outside tests and migrations."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("common", "config", "demo", "infra", "rulings", "scoring", "tournament")
NAMED = {"infra.errorpages"}  # named in the contract beside the wildcards
VIEW_BASES = ("View", "ViewSet")  # Django's and DRF's view classes end so (APIView, FormView, ModelViewSet, ...)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _covered(module: str) -> bool:
    return module in NAMED or bool({"views", "api"} & set(module.split(".")[1:]))


def _sources():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if not {"tests", "migrations"} & set(path.relative_to(ROOT).parts):
                yield path, _module_name(path), ast.parse(path.read_text(encoding="utf-8"))


def test_every_view_class_lives_in_a_views_or_api_module():
    found = []
    for _path, module, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and not _covered(module):
                bases = [ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases]
                if any(base.endswith(VIEW_BASES) for base in bases):
                    found.append(f"{module}.{node.name}")
    assert not found, "move each view into its app's views (or api) module or package:\n" + "\n".join(found)


def test_the_url_modules_route_only_to_views_or_api_modules():
    found = []
    for path, module, tree in _sources():
        if not path.name.endswith("urls.py"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module.split(".")[0] in PACKAGES:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    if not (_covered(node.module) or _covered(target) or target.endswith("urls")):
                        found.append(f"{module}: from {node.module} import {alias.name}")
            elif isinstance(node, ast.ImportFrom) and node.level:
                found += [f"{module}: a relative import ({alias.name})" for alias in node.names
                          if not _covered(f"{module}.{alias.name}")]
    assert not found, "a URL module routes to views or API modules only:\n" + "\n".join(found)
