"""The project's own import-linter contract types (registered in ``.importlinter``'s ``contract_types``).

``acyclic_modules``: no module imports another that imports it back, directly or through others, anywhere in
the named packages. import-linter's own ``acyclic_siblings`` squashes each package's children into one node,
so it cannot be asked of ``tournament``, whose feature packages use each other both ways (entries and
competition, clocks and competition) although no module of theirs ever imports itself back; this contract looks
at the modules themselves, whole project at once.
"""
from __future__ import annotations

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
            modules |= {package.name} | graph.find_descendants(package.name)
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
