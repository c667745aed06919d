"""A refused input in the tests: a UserError naming ``field`` and, when given, showing ``text`` (Chinese)."""
from contextlib import contextmanager

import pytest

from common.errors import UserError


@contextmanager
def refused(field, text=None):
    with pytest.raises(UserError) as info:
        yield info
    assert info.value.field == field, (info.value.field, str(info.value))
    if text is not None:
        assert text in str(info.value), str(info.value)
