"""The project's own import contract types (tools/import_contracts.py, run by lint-imports). ``acyclic_modules``
finds a module that imports itself back through others, and nothing where the imports only go one way, even
when two packages use each other both ways module by module; ``one_way`` and ``tests/test_layers.py`` find
packages that import each other both ways (``mutual_pairs``, ``direct_imports``)."""
import grimp

from tools.import_contracts import direct_imports, import_cycles, mutual_pairs


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


def _packaged(*imports):
    """A graph of these imports with every package above their modules added (as a built graph has them)."""
    graph = _graph(*imports)
    for module in list(graph.modules):
        parts = module.split(".")
        for depth in range(1, len(parts)):
            graph.add_module(".".join(parts[:depth]))
    return graph


def test_mutual_pairs_are_sibling_packages_importing_each_other_directly():
    graph = _packaged(("shop.entries.pairs", "shop.competition.results"),
                      ("shop.competition.draws", "shop.entries.services"),
                      ("shop.access", "shop.competition.results"), ("shop.competition.results", "shop.access"),
                      ("bank.ledger", "shop.entries.pairs"))
    # shop.access is a module beside the packages, and bank only imports shop: neither pair counts
    assert mutual_pairs(graph, ["shop", "bank"]) == [("shop.competition", "shop.entries")]
    assert direct_imports(graph, "shop.entries", "shop.competition") == [("shop.entries.pairs",
                                                                         "shop.competition.results")]


def test_one_way_imports_make_no_mutual_pair():
    graph = _packaged(("shop.entries.pairs", "shop.competition.results"),
                      ("shop.entries.services", "shop.competition.draws"))
    assert mutual_pairs(graph, ["shop"]) == []
