"""The piquet family (spec 2–7), one module per concern:

- :mod:`.declarations`: the ranks and their names, the four categories, their values and parser;
- :mod:`.play`: the trick winners, the two-hand play summary, the fields a variant does not know;
- :mod:`.reckoning`: the reckoning-order engine (spec 2.4, 2.5) and the mismatch explanations;
- :mod:`.state`: the family's match state (spec 2.7);
- :mod:`.cards`: the card-level checks of the two-hand variants (spec 2.6);
- :mod:`.two_hand`: the rulesets ``piquet``, ``piquet-au-cent`` and ``piquet-auction``;
- :mod:`.partnerships`: the rulesets ``piquet-voleur`` and ``piquet-normand``.

Importing the package registers the five rulesets.
"""

# The two-hand rulesets register first, as they always have (the catalog lists them in this order).
from . import two_hand, partnerships  # noqa: F401  isort: skip
