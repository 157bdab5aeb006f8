"""The shared store suite on every backend, and the backends against each other."""

from __future__ import annotations

import pytest

from .store_suite import StoreSuite

pytestmark = pytest.mark.integration


class TestLanceDB(StoreSuite):
    backend = "lancedb"


@pytest.mark.milvus
class TestMilvusLite(StoreSuite):
    backend = "milvus-lite"
