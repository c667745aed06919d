"""The project's own import contract type, ``acyclic_modules`` (tools/import_contracts.py, run by lint-imports):
it finds a module that imports itself back through others, and nothing where the imports only go one way, even
when two packages use each other both ways module by module."""
import grimp

from tools.import_contracts import import_cycles


def _graph(*imports):
    graph = grimp.ImportGraph()
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported)
    return graph


def test_a_circle_through_other_modules_is_found():
    graph = _graph(("app.tasks", "app.services"), ("app.services", "app.records"), ("app.records", "app.tasks"),
                   ("app.views", "app.services"))
    modules = {"app.tasks", "app.services", "app.records", "app.views"}
    assert import_cycles(graph, modules) == [["app.records", "app.services", "app.tasks"]]


def test_two_packages_using_each_other_without_a_module_circle_pass():
    graph = _graph(("shop.entries.pairs", "shop.competition.results"),
                   ("shop.competition.draws", "shop.entries.services"))
    modules = {"shop.entries.pairs", "shop.entries.services", "shop.competition.results", "shop.competition.draws"}
    assert import_cycles(graph, modules) == []


def test_only_the_named_modules_are_looked_at():
    graph = _graph(("a", "b"), ("b", "a"), ("c", "d"))
    assert import_cycles(graph, {"a", "c", "d"}) == []
    assert import_cycles(graph, {"a", "b", "c", "d"}) == [["a", "b"]]
