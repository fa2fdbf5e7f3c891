"""Skip a test whose outside requirement is missing -- or fail it where everything is required.

A test that needs something outside Python (Debian's ``chromium``, PostgreSQL's server binaries)
calls :func:`missing` instead of ``pytest.skip``. On a developer's machine it skips, with the
reason. Under continuous integration (``CI`` set, as CI services do, or ``OWSNB_REQUIRE_ALL=1``,
as ``.ci/run`` sets) it fails, so a run cannot pass with those tests silently skipped.

Example:
    >>> required({"CI": "true"}), required({"OWSNB_REQUIRE_ALL": "1"})
    (True, True)
    >>> required({}), required({"CI": "0", "OWSNB_REQUIRE_ALL": ""})
    (False, False)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NoReturn

#: Environment variables that make a missing requirement fail the run instead of skipping.
FLAGS = ("CI", "OWSNB_REQUIRE_ALL")
_OFF = {"", "0", "false", "no", "off"}


def required(environ: Mapping[str, str] | None = None) -> bool:
    """Whether every outside requirement must be present (``CI`` or ``OWSNB_REQUIRE_ALL`` set).

    Args:
        environ: the environment to read (default: ``os.environ``).

    Example:
        >>> required({"OWSNB_REQUIRE_ALL": "yes"})
        True
    """
    env = os.environ if environ is None else environ
    return any(env.get(flag, "").strip().lower() not in _OFF for flag in FLAGS)


def missing(reason: str, environ: Mapping[str, str] | None = None) -> NoReturn:
    """Skip the calling test because of ``reason``; fail it instead when :func:`required`.

    Args:
        reason: what is missing and how to install it, e.g. ``"Debian chromium is not installed"``.
        environ: the environment to read (default: ``os.environ``).

    Raises:
        pytest.skip.Exception: normally (the test is reported as skipped, with the reason).
        pytest.fail.Exception: under ``CI`` / ``OWSNB_REQUIRE_ALL`` (the test fails).

    Example:
        >>> import pytest
        >>> with pytest.raises(pytest.fail.Exception) as err:
        ...     missing("Debian chromium is not installed", {"CI": "1"})
        >>> print(err.value)
        Debian chromium is not installed (required here: CI or OWSNB_REQUIRE_ALL is set)
        >>> with pytest.raises(pytest.skip.Exception):
        ...     missing("Debian chromium is not installed", {})
    """
    import pytest

    if required(environ):
        pytest.fail(f"{reason} (required here: CI or OWSNB_REQUIRE_ALL is set)", pytrace=False)
    pytest.skip(reason)
