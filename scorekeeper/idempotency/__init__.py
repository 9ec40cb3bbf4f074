"""HTTP idempotency: a POST sent with an ``Idempotency-Key`` is carried out at most once.

``decorators.idempotent`` wraps a DRF view's ``post``; ``services`` claims the key in the
transaction of the write and stores the outcome a retry gets back; ``tasks`` sweeps the
expired keys hourly. The app builds on DRF and on the matches' domain errors (it raises
them, and its own ``IdempotencyKeyReused`` is one), so that the API's one exception handler
answers for it; it imports nothing of ``api``.
"""
