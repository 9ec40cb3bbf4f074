"""The REST API for scoring apps (DRF) under /api/v1/."""
