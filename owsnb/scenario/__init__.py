"""Scenario files: load, validate and turn into an initial game state (pydantic + YAML).

Making maps (the grid over real geography, land/sea, coast) is :mod:`owsnb.authoring`, beside
this package; the loader never imports it."""

from owsnb.scenario.loader import (
    Scenario,
    build_state,
    find_scenario,
    list_scenarios,
    load_scenario,
    scenario_dirs,
)

__all__ = [
    "Scenario",
    "build_state",
    "find_scenario",
    "list_scenarios",
    "load_scenario",
    "scenario_dirs",
]
