"""Developer tooling, not serving code: ``manage.py demo`` and its matches (demo/),
``manage.py screenshots``, the browser setup it shares with the browser tests (browser.py) and
``manage.py compile_catalogs``.

The app serves no URL and has no models, and nothing that serves requests imports it; as
tooling it may import any layer (the rules, the matches, the ratings, the pages). It is always
installed because ``./run`` loads the demo with only requirements.txt installed: what needs a
development requirement (the screenshots: playwright) imports it when it runs and says what to
install when it is missing.
"""

from pathlib import Path

#: The demo's matches, hand by hand: one JSON file per game key (demo/README.md).
DEMO_DATA = Path(__file__).resolve().parent / "demo"
