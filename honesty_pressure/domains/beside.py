"""A domain file outside the registry (`domains check PATH`): read with the functions of the
module beside it, imported from its own file (docs/CONTRIBUTING.md)."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

from ..core.errors import InputError
from .base import Domain
from .datafile import read_domain

_PACKAGE_DIR = Path(__file__).resolve().parent


def module_beside(path: Path) -> ModuleType | None:
    """The module beside a domain file (`<stem>.py`), imported; None if there is none. A shipped
    file's module is the package's own; any other is imported from its file, under a name of its
    own (its imports of the kit are absolute: `from honesty_pressure.core.draws import Draw`)."""
    beside = path.with_suffix(".py")
    if not beside.is_file():
        return None
    if path.parent.resolve() == _PACKAGE_DIR:
        return importlib.import_module(f"{__package__}.{path.stem}")
    spec = importlib.util.spec_from_file_location(f"honesty_pressure_domain_{path.stem}", beside)
    if spec is None or spec.loader is None:
        raise InputError("cannot import the module beside the domain file", file=str(beside))
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the lab's own code: any failure is a bad input, named
        raise InputError(
            f"importing it failed: {type(error).__name__}: {error}", file=str(beside)
        ) from None
    return module


def read_beside(path: Path, data: bytes | None = None) -> Domain:
    """The domain of the file at `path` (its bytes `data`, when the caller has read them) with the
    functions of the module beside it (none: every function the file names is then missing). The
    domain is bound in that module as DOMAIN."""
    module = module_beside(path)
    domain = read_domain(path, vars(module) if module is not None else {}, data)
    if module is not None and not module.__name__.startswith(f"{__package__}."):
        vars(module)["DOMAIN"] = domain
    return domain
