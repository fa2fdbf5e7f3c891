"""Rule sets. Each sub-package is one rule set over the kernel; none imports another.

Importing ``owsnb.rules`` registers the built-in rule sets by name (imported on first use).
"""

from importlib.util import find_spec

from owsnb.kernel.registry import register_ruleset

BUILTIN = {
    "ows": "owsnb.rules.ows:RULESET",
    "opart": "owsnb.rules.opart:RULESET",
    "combatops": "owsnb.rules.combatops:RULESET",
    "tocs": "owsnb.rules.tocs:RULESET",
    "opscale": "owsnb.rules.opscale:RULESET",
}

for _name, _path in BUILTIN.items():
    if find_spec(_path.partition(":")[0]) is not None:
        register_ruleset(_name, _path)
