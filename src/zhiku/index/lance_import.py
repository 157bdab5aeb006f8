"""Import LanceDB without the start-up work an embedded store never needs: its REST
client's package initialiser, pandas, the validators of the REST client's models until one
is used, and, before Python 3.12, the ``overrides`` signature checks."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

# The generated REST client of lance-namespace: its ``__init__`` imports every API class
# (each method wrapped by pydantic's validate_call at import time). LanceDB itself imports
# only its models, by their own module paths, which work without the package initialiser.
DEFERRED = "lance_namespace_urllib3_client"


def _defer(name: str) -> None:
    """Put package ``name`` in ``sys.modules`` without running its ``__init__``: its
    submodules import as usual, and the first attribute read on the package itself runs
    the initialiser then."""
    if name in sys.modules:
        return
    spec = importlib.machinery.PathFinder.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return  # not installed (or not a package): nothing to defer
    mod = importlib.util.module_from_spec(spec)

    def __getattr__(attr: str) -> Any:
        mod.__dict__.pop("__getattr__", None)
        spec.loader.exec_module(mod)
        return getattr(mod, attr)

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    sys.modules[name] = mod


# pyarrow.dataset builds an expression as it is imported, and pyarrow's pandas shim, asked
# whether that scalar is a pandas object, imports pandas (~0.4 s of CPU). The store never
# hands pyarrow pandas objects; with pandas hidden for the import, the shim records it as
# absent for that check only and imports it for real on the first ``to_pandas``.
HIDDEN = "pandas"


class _Hidden:
    """A meta path finder and loader (importlib.abc's protocols, without importing that
    module) that finds :data:`HIDDEN`, so availability checks still see it installed, but
    fails to load it; nothing is left in ``sys.modules``."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != HIDDEN:
            return None
        return importlib.machinery.ModuleSpec(name, self)

    def create_module(self, spec: Any) -> Any:
        raise ModuleNotFoundError(f"{spec.name} is not imported while LanceDB is", name=spec.name)

    def exec_module(self, module: ModuleType) -> None:  # never reached: create_module fails
        raise ModuleNotFoundError(module.__name__)


def _defer_pydantic(on: Any) -> Any:
    """Set pydantic's default ``defer_build`` and return what it was (None, and nothing is
    set, when this pydantic lacks that private default). LanceDB imports lance-namespace, whose
    package imports every model of its generated REST client (about 150); deferred, each
    builds its validator when first used instead of at import (~0.2 s of CPU)."""
    try:
        from pydantic._internal._config import config_defaults
    except ImportError:
        return None
    was = config_defaults.get("defer_build")
    if was is not None:
        config_defaults["defer_build"] = on
    return was


def _plain_overrides() -> ModuleType:
    """What LanceDB itself uses from Python 3.12 on instead of the ``overrides`` package: an
    ``override`` marker and a plain ``EnforceOverrides`` base (the package checks every
    overriding method's signature by disassembling it, once per import, ~1 s here)."""
    mod = ModuleType("overrides")

    def override(f: Any) -> Any:
        try:
            f.__override__ = True
        except (AttributeError, TypeError):
            pass
        return f

    class EnforceOverrides:
        pass

    mod.override, mod.EnforceOverrides = override, EnforceOverrides  # type: ignore[attr-defined]
    return mod


def lancedb() -> ModuleType:
    """The ``lancedb`` module, imported with :data:`DEFERRED` deferred, :data:`HIDDEN`
    hidden, its pydantic models built on first use (:func:`_defer_pydantic`) and (before
    Python 3.12) LanceDB's own 3.12 stand-ins for ``overrides``; whoever imports pandas
    or ``overrides`` afterwards gets the real package."""
    if "lancedb" in sys.modules:
        return sys.modules["lancedb"]
    _defer(DEFERRED)
    stub = sys.version_info < (3, 12) and "overrides" not in sys.modules
    if stub:
        sys.modules["overrides"] = _plain_overrides()
    hide = _Hidden()
    sys.meta_path.insert(0, hide)
    was = _defer_pydantic(True)
    try:
        import lancedb as mod
    finally:
        if was is not None:
            _defer_pydantic(was)
        sys.meta_path.remove(hide)
        if stub:
            sys.modules.pop("overrides", None)
    return mod
