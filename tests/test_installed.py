"""owsnb as a user gets it: the wheel, installed into a fresh virtualenv, runs its own documentation
(issue 17: doctests must not need the repository's ``tests/`` directory or its working tree).

The wheel is built from this checkout with hatchling (the build backend, in the ``test`` extra, so
no download), installed with ``--no-deps`` into a virtualenv without system site-packages; the
dependencies come from the running interpreter's site-packages through a ``.pth`` line (which adds
that directory but does not run its ``.pth`` files, so an editable install of owsnb there stays out
of sight). The doctests then run against the installed copy, from an empty directory."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    out = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{' '.join(args)}\n{out.stdout[-4000:]}\n{out.stderr[-4000:]}"
    return out.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh virtualenv holding the owsnb wheel built from this checkout."""
    tmp = tmp_path_factory.mktemp("installed")
    _run([sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp)], cwd=ROOT)
    (wheel,) = tmp.glob("owsnb-*.whl")
    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(tmp / "venv")
    python = tmp / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    _run([*pip, "install", "-q", "--no-deps", "--no-index", str(wheel)], cwd=tmp)
    site = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp
    )
    deps = sysconfig.get_paths()["purelib"]
    (Path(site.strip()) / "owsnb-dependencies.pth").write_text(deps + "\n")
    return python


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OWSNB_RULESETS")}
    env["OWSNB_HOME"] = str(home)
    return env


@pytest.mark.slow
def test_the_installed_package_is_the_wheel_and_cannot_see_the_repository(installed, tmp_path):
    code = (
        "import importlib.util, owsnb\n"
        "print(owsnb.__file__)\n"
        "print(importlib.util.find_spec('tests') is None)\n"
        "print(owsnb.load is not None)"
    )
    where, no_tests, loads = _run([str(installed), "-c", code], tmp_path, _env(tmp_path)).split()
    assert Path(where).is_relative_to(installed.parents[1]), where
    assert no_tests == "True" and loads == "True"


@pytest.mark.slow
def test_every_doctest_runs_from_the_installed_package(installed, tmp_path):
    out = _run(
        [
            str(installed),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--doctest-modules",
            "--pyargs",
            "owsnb",
            "-o",
            "addopts=",
            "-o",
            "doctest_optionflags=NORMALIZE_WHITESPACE ELLIPSIS",
        ],
        tmp_path,
        _env(tmp_path / "home"),
    )
    summary = out.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "error" not in summary, out[-3000:]
    assert int(summary.split(" passed")[0].split()[-1]) > 200  # the package's doctests, not none
