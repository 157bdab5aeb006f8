"""LanceDB is imported without its REST client's API classes or pandas, and still works in full."""

import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration

SCRIPT = r"""
import sys, tempfile
import pyarrow as pa
from zhiku.index.lance_import import lancedb
db = lancedb().connect(tempfile.mkdtemp())
from lancedb.index import FTS
from lancedb.query import MatchQuery

t = db.create_table("t", pa.table({"seg": ["试用期 六个月", "工资 拖欠"], "n": [1, 2]}))
t.create_index("seg", config=FTS(base_tokenizer="whitespace", with_position=False))
hits = t.search(MatchQuery("工资", "seg"), query_type="fts").limit(5).to_list()
assert [h["n"] for h in hits] == [2], hits
assert not [m for m in sys.modules if m.startswith("lance_namespace_urllib3_client.api.")]
assert "pandas" not in sys.modules
assert t.search().limit(5).to_pandas()["n"].tolist() == [1, 2]  # pandas loads when asked for
assert "pandas" in sys.modules
import lance_namespace  # its models, built when first used, validate as ever
assert lance_namespace.ListTablesResponse(tables=["t"]).tables == ["t"]
import pydantic
class Later(pydantic.BaseModel):  # models defined after the import are built at once
    n: int
assert Later.__pydantic_complete__ and Later(n="1").n == 1
import overrides  # whoever imports it afterwards gets the real package
assert hasattr(overrides, "EnforceOverrides") and overrides.__file__
import lance_namespace_urllib3_client as client  # the deferred package loads on first use
assert client.TableApi and [m for m in sys.modules if m.startswith("lance_namespace_urllib3_client.api.")]
print("ok")
"""


def test_lancedb_without_the_rest_client_still_searches():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
