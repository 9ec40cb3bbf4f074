"""The REST API for scoring apps (DRF) under /api/v1/.

One module per resource, holding its views and its serializers (``games``, ``players``,
``matches``, ``hands``, ``ratings``, ``people``, ``exchange``, ``auth``, ``root``), routed by the
one ``urls``; beside them what they share (``bodies``, ``evaluation``, ``schema``,
``idempotency``, ``exceptions``, ``parsers``, ``throttles``, ``tokens``, ``pagination``).
"""
