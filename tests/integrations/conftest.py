"""The frameworks' async standard tests run under pytest-asyncio (a langchain-tests dependency)."""

from __future__ import annotations

import inspect

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if inspect.iscoroutinefunction(getattr(item, "function", None)):
            item.add_marker(pytest.mark.asyncio)
