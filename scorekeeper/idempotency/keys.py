"""What an ``Idempotency-Key`` header is: its name and the keys it may carry (1 to 255 printable
ASCII characters, the model's ``key`` column), read alike by the API's decorator
(``api/idempotency.py``) and the pages' offline sending (``scorekeeper/matches/views/offline.py``)."""

from __future__ import annotations

import re

HEADER = "Idempotency-Key"
MAX_LENGTH = 255
KEY = re.compile(rf"[\x20-\x7e]{{1,{MAX_LENGTH}}}")
