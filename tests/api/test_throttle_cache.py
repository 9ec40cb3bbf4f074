"""The throttles' and lockouts' counts live in the cache: Django's Redis cache when REDIS_URL is
set, local memory on `./run`; a Redis that is down fails soft and fast, never a 500."""

from __future__ import annotations

import time

import pytest
from django.core.cache.backends.redis import RedisCache

from scorekeeper.cache import FailSoftRedisCache
from tests.integration.support import free_port
from tests.project.test_settings import manage

SHOW = "from django.conf import settings as s; print(s.CACHES['default']['BACKEND'], s.AXES_HANDLER)"


def test_the_cache_is_redis_with_redis_url_and_local_memory_without():
    with_redis = manage(
        "shell", "--no-imports", "-c", SHOW, REDIS_URL="redis://127.0.0.1:6379/3"
    ).stdout.split()
    assert with_redis == ["scorekeeper.cache.FailSoftRedisCache", "axes.handlers.cache.AxesCacheHandler"]
    assert manage("shell", "--no-imports", "-c", SHOW).stdout.split()[0].endswith("LocMemCache")
    assert issubclass(FailSoftRedisCache, RedisCache)


def test_a_redis_that_is_down_reads_as_empty_at_once():
    url = f"redis://127.0.0.1:{free_port()}/0"
    down = FailSoftRedisCache(url, {"OPTIONS": {"socket_connect_timeout": 0.5}})
    started = time.perf_counter()

    down.set("k", [1], 60)
    assert down.get("k", "nothing") == "nothing" and down.add("k", 1) is False

    assert time.perf_counter() - started < 2


@pytest.mark.django_db
def test_requests_go_through_while_the_throttles_cache_is_down(settings, user, fresh_cache):
    from rest_framework.test import APIClient

    ann = APIClient()
    ann.force_authenticate(user)
    settings.CACHES = {
        "default": {
            "BACKEND": "scorekeeper.cache.FailSoftRedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }

    assert ann.post("/api/v1/players", {"name": "Ada"}, format="json").status_code == 201


def test_the_cache_builds_one_redis_client_and_keeps_it_through_an_outage():
    url = f"redis://127.0.0.1:{free_port()}/0"
    cache = FailSoftRedisCache(url, {"OPTIONS": {"socket_connect_timeout": 0.2}})
    client = cache._cache.get_client(write=True)

    assert cache._cache.get_client() is client and cache._cache.get_client(write=True) is client
    assert cache.get("k", "nothing") == "nothing"  # down: a miss, and the same client after
    assert cache._cache.get_client() is client
