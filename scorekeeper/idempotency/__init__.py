"""HTTP idempotency: a POST sent with an ``Idempotency-Key`` is carried out at most once.

``keys`` says what a key is (the header's name, its format); ``services`` claims the key in
the transaction of the write and stores the outcome a retry gets back; ``tasks`` sweeps the
expired keys hourly. The HTTP side, the decorator that wraps a DRF view's ``post``, is the
API's (``api/idempotency.py``), and the offline pages use the services alike. The app raises
domain errors (its own ``IdempotencyKeyReused`` is one), so that the API's one exception
handler answers for it; it imports nothing of ``api`` and nothing of DRF.
"""
