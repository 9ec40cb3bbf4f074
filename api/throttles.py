"""The API's throttles (DRF's), counted in the cache (Redis in production, settings.CACHES).

- ``TokenAddressThrottle`` and ``TokenUsernameThrottle``: the token endpoint, per client
  address and per username. They run before the view, so a caller over the rate never gets a
  password checked (hashing one takes the worker tens of milliseconds).
- ``WriteThrottle``: every POST, per user (anonymous callers, the dry run: per address),
  generously.

Over the rate: 429 ``throttled`` with ``Retry-After`` (seconds), in the API's error shape.
Rates are ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, read on every request.
"""

from __future__ import annotations

import hashlib

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class _Throttle(SimpleRateThrottle):
    def get_rate(self):
        # DRF binds the rates when its module is imported; read them now, so that a change of
        # settings (a test, a reload) applies.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    # Not ``key``: DRF's allow_request stores the request's cache key in that attribute.
    def key_for(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}


class WriteThrottle(_Throttle):
    scope = "write"

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        user = request.user
        if user is not None and user.is_authenticated:
            return self.key_for(f"user-{user.pk}")
        return self.key_for(f"address-{self.get_ident(request)}")


class TokenAddressThrottle(_Throttle):
    scope = "token_address"

    def get_cache_key(self, request, view):
        return self.key_for(self.get_ident(request))


class TokenUsernameThrottle(_Throttle):
    scope = "token_username"

    def get_cache_key(self, request, view):
        data = request.data  # a malformed body is its 400 here, before any password
        username = data.get("username") if hasattr(data, "get") else None
        if not isinstance(username, str) or not username:
            return None  # nothing to count by; the address throttle still counts it
        # Hashed: a cache key of bounded length and alphabet whatever the name sent.
        return self.key_for(hashlib.sha256(username.casefold().encode("utf-8", "replace")).hexdigest())
