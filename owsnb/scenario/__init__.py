"""Scenario files: load, validate and turn into an initial game state (pydantic + YAML)."""

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
