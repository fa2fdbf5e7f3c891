"""Map authoring: lay a hex grid over real geography, classify land/littoral/deep sea with an
offline land/sea mask, apply a recipe's overrides and write the scenario YAML plus its coastline
layer (``owsnb scenario new``, notebook 04, the scenario editor).

It sits beside the loader (:mod:`owsnb.scenario`) and may use it; the loader never imports this
package, so loading a scenario never needs the land/sea mask (checked by ``tests/test_layers.py``).
Modules: :mod:`~owsnb.authoring.generate` (the recipe → scenario assembly),
:mod:`~owsnb.authoring.grid_fit`, :mod:`~owsnb.authoring.land`, :mod:`~owsnb.authoring.coast`,
:mod:`~owsnb.authoring.overrides`, :mod:`~owsnb.authoring.tracing`,
:mod:`~owsnb.authoring.recipe`, :mod:`~owsnb.authoring.yaml_writer`,
:mod:`~owsnb.authoring.preview` (SVG pictures) and :mod:`~owsnb.authoring.cli`.
"""
