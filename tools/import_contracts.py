"""The project's own import-linter contract types (registered in ``.importlinter``'s ``contract_types``).

``one_way``: of the named packages, no two import each other both ways (direct imports, each package with all
its modules): between two of them the imports go one way or not at all. :func:`mutual_pairs` counts such pairs
among sibling packages anywhere in the project (``tests/test_layers.py``).

``acyclic_modules``: no module imports another that imports it back, directly or through others, anywhere in
the named packages. import-linter's own ``acyclic_siblings`` squashes each package's children into one node,
so it cannot be asked of ``tournament``, whose feature packages use each other both ways (entries and
competition, clocks and competition) although no module of theirs ever imports itself back; this contract looks
at the modules themselves, whole project at once.
"""
from __future__ import annotations

from itertools import combinations

import grimp
from importlinter.application import contract_utils, output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck
from importlinter.domain.helpers import module_expressions_to_modules


def import_cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """The strongly connected components (of two modules or more) of the imports between ``modules``, each
    sorted, in sorted order (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []

    def imported(module):
        return sorted(m for m in graph.find_modules_directly_imported_by(module) if m in modules)

    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(imported(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == module:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(imported(child))))
            elif child in on_stack:
                low[module] = min(low[module], index[child])
    return sorted(components)


def _within(graph: grimp.ImportGraph, package: str) -> set[str]:
    return {package} | graph.find_descendants(package)


class AcyclicModulesContract(Contract):
    """No import cycle between any two modules of ``packages`` (each taken with all its descendants)."""

    type_name = "acyclic_modules"

    packages = fields.SetField(subfield=fields.ModuleExpressionField())
    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        removal = contract_utils.remove_ignored_imports_and_report(
            graph=graph, ignore_imports=self.ignore_imports,  # type: ignore[arg-type]
            unmatched_alerting=contract_utils.AlertLevel.ERROR)
        modules: set[str] = set()
        for package in module_expressions_to_modules(graph, self.packages):  # type: ignore[arg-type]
            modules |= _within(graph, package.name)
        cycles = []
        for component in import_cycles(graph, modules):
            first = component[0]
            back = min((m for m in graph.find_modules_directly_imported_by(first) if m in component))
            chain = graph.find_shortest_chain(importer=back, imported=first) or (back, first)
            cycles.append([first, *chain])
        return ContractCheck(kept=not cycles, warnings=list(removal.warnings),
                             ignored_import_count=removal.ignored_import_count, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error(f"{cycle[0]} imports itself back: " + " -> ".join(cycle))
            output.new_line()


def direct_imports(graph: grimp.ImportGraph, importer: str, imported: str) -> list[tuple[str, str]]:
    """The direct imports of a module of ``importer`` (a package with its modules) of one of ``imported``."""
    targets = _within(graph, imported)
    return sorted((module, other) for module in _within(graph, importer)
                  for other in graph.find_modules_directly_imported_by(module) if other in targets)


def mutual_pairs(graph: grimp.ImportGraph, roots: list[str]) -> list[tuple[str, str]]:
    """The pairs of sibling packages (two top-level ``roots``, or two subpackages of one package, at any depth)
    of which each imports the other directly (a module of one, or of a package inside it, importing a module
    of the other), sorted. Only packages are paired, as a reader sees them in the folders: a module beside a
    package (``tournament.access`` beside ``tournament.competition``) is not."""
    modules = set().union(*(_within(graph, root) for root in roots))
    packages = {module for module in modules if graph.find_children(module)} | set(roots)
    one_way = set()
    for module in modules:
        for other in graph.find_modules_directly_imported_by(module):
            if other not in modules:
                continue
            mine, theirs = module.split("."), other.split(".")
            depth = 0
            while depth < min(len(mine), len(theirs)) and mine[depth] == theirs[depth]:
                depth += 1
            if depth >= len(mine) or depth >= len(theirs):
                continue   # one inside the other
            a, b = ".".join(mine[:depth + 1]), ".".join(theirs[:depth + 1])
            if a in packages and b in packages:
                one_way.add((a, b))
    return sorted({tuple(sorted(pair)) for pair in one_way if pair[::-1] in one_way})


class OneWayContract(Contract):
    """No two of ``packages`` import each other both ways (direct imports; each package with its modules)."""

    type_name = "one_way"

    packages = fields.ListField(subfield=fields.ModuleField())
    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        removal = contract_utils.remove_ignored_imports_and_report(
            graph=graph, ignore_imports=self.ignore_imports,  # type: ignore[arg-type]
            unmatched_alerting=contract_utils.AlertLevel.ERROR)
        names = [module.name for module in self.packages]  # type: ignore[attr-defined]
        both = []
        for a, b in combinations(names, 2):
            there, back = direct_imports(graph, a, b), direct_imports(graph, b, a)
            if there and back:
                both.append({"pair": (a, b), "there": there, "back": back})
        return ContractCheck(kept=not both, warnings=list(removal.warnings),
                             ignored_import_count=removal.ignored_import_count, metadata={"both": both})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for found in check.metadata["both"]:
            a, b = found["pair"]
            output.print_error(f"{a} and {b} import each other both ways:")
            for importer, imported in (*found["there"], *found["back"]):
                output.print_error(f"    {importer} -> {imported}")
            output.new_line()
