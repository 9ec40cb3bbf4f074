"""Django's Redis cache, failing soft: throttling state lives here, and a Redis that is down
must not turn every sign-in and every write into a 500 (nor make them wait: the connection
timeouts in settings are short). A read finds nothing, a write is dropped, with a warning in
the log; the throttles then let requests through until Redis is back."""

from __future__ import annotations

import functools
import logging

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

_DOWN = (RedisConnectionError, RedisTimeoutError)


def _soft(method, fallback):
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except _DOWN as exc:
            log.warning("cache unavailable, %s skipped: %r", method.__name__, exc)
            return fallback(*args) if callable(fallback) else fallback

    return wrapper


class FailSoftRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        # Django builds a redis.Redis object on every call, about 0.1 ms of CPU each, and a
        # signed-in page or a throttled write makes two or three calls. A client over a
        # connection pool is safe to share, so one per server is kept, on its pool.
        pool = self._get_connection_pool(write)  # kept by Django for the cache's life
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    add = _soft(RedisCacheClient.add, False)
    get = _soft(RedisCacheClient.get, lambda key, default: default)
    set = _soft(RedisCacheClient.set, None)
    touch = _soft(RedisCacheClient.touch, False)
    delete = _soft(RedisCacheClient.delete, False)
    get_many = _soft(RedisCacheClient.get_many, {})
    has_key = _soft(RedisCacheClient.has_key, False)
    incr = _soft(RedisCacheClient.incr, lambda key, delta: delta)
    set_many = _soft(RedisCacheClient.set_many, [])
    delete_many = _soft(RedisCacheClient.delete_many, None)
    clear = _soft(RedisCacheClient.clear, False)


class FailSoftRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = FailSoftRedisCacheClient
