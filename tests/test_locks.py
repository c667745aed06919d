"""The installs are reproducible (#46, item 12): the ranges are requirements*.txt, the locks pin every package
with its hashes, every pin satisfies its range, and both locks agree. Offline: the files only, no index.

The printouts' font is read from the locked vendor package without importing it, and only when it is the
font byte for byte (tournament/printouts/fonts.py)."""
import re
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tournament.printouts import fonts

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


def ranges(name):
    """The requirements of a ranges file, following its `-r` includes: {name: Requirement}."""
    found = {}
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            found.update(ranges(line[3:].strip()))
            continue
        requirement = Requirement(line)
        found[canonicalize_name(requirement.name)] = requirement
    return found


def lock(name):
    """A lock's pins: {name: (Version, number of sha256 hashes)}; each entry is a pin and its hash lines."""
    pins = {}
    current = None
    for line in (ROOT / name).read_text().splitlines():
        match = PIN.match(line)
        if match:
            current = canonicalize_name(match.group(1))
            assert current not in pins, f"{name}: {current} pinned twice"
            pins[current] = [Version(match.group(2)), 0]
        elif HASH.search(line):
            assert current, f"{name}: a hash before any pin"
            pins[current][1] += 1
        else:
            stripped = line.strip()
            assert not stripped or stripped.startswith("#"), f"{name}: not a pin, a hash or a comment: {line}"
    return {key: tuple(value) for key, value in pins.items()}


@pytest.mark.parametrize(("ranges_file", "lock_file"), [
    ("requirements.txt", "requirements.lock"),
    ("requirements-test.txt", "requirements-test.lock"),
])
def test_every_range_is_pinned_within_it_with_hashes(ranges_file, lock_file):
    wanted = ranges(ranges_file)
    pins = lock(lock_file)
    for name, requirement in wanted.items():
        assert name in pins, f"{requirement} has no pin in {lock_file}"
        version, _ = pins[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{lock_file} pins {name}=={version}, outside {ranges_file}'s {requirement}")
    for name, (version, hashes) in pins.items():
        assert hashes, f"{lock_file}: {name}=={version} has no sha256 (pip --require-hashes refuses it)"


def test_the_locks_agree_and_pin_the_installer():
    server, test = lock("requirements.lock"), lock("requirements-test.lock")
    assert set(server) <= set(test), "the server installs a package the tests never ran with"
    for name, (version, _) in server.items():
        assert test[name][0] == version, f"{name}: {version} on a server, {test[name][0]} in the tests"
    # make setup installs the lock and nothing else first: pip itself is pinned (no unpinned upgrade).
    assert "pip" in test
    assert "--upgrade pip" not in (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements-test.lock" in (ROOT / "Makefile").read_text()


def test_the_vendor_font_package_is_read_never_imported():
    sys.modules.pop("paperang_p2_fonts_cjk", None)
    path = fonts.packaged_font()
    assert path is not None and path.name == "wqy-microhei.ttc"
    assert "paperang_p2_fonts_cjk" not in sys.modules
    assert fonts.candidate_paths()[0] == path


def test_a_font_file_that_is_not_the_font_is_refused(tmp_path, monkeypatch):
    impostor = tmp_path / "wqy-microhei.ttc"
    impostor.write_bytes(b"not the font")
    assert not fonts.is_the_font(impostor)
    assert not fonts.is_the_font(tmp_path / "missing.ttc")
    monkeypatch.setattr(fonts, "is_the_font", lambda path: False)
    paths = fonts.candidate_paths()
    assert paths[-1] == Path(fonts.DEBIAN_PATH)  # the fallback stays
    assert all("paperang" not in str(p) for p in paths)
