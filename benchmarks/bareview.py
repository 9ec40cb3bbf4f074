"""The bare ceiling of the load benchmark: a plain Django view that INSERTs the request body.

No DRF, no authentication, no rules engine, no ORM model: one INSERT of the JSON body into
a plain table (created by ``benchmarks/load_api.py``), answered with the new row's id. Served
by the same gunicorn and database setup as the API, through ``benchmarks.bare_settings``,
which adds ``/bench/bare`` to the site's URLs; the service itself never routes to it.
"""

from __future__ import annotations

from django.db import connection
from django.http import HttpResponseNotAllowed, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from scorekeeper.urls import urlpatterns as site_urlpatterns

TABLE = "bench_bare_insert"
CREATE_TABLE = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} "
    "(id bigserial PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
)


@csrf_exempt
def bare_insert(request):
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {TABLE} (body) VALUES (%s) RETURNING id", [request.body.decode()])
        (row_id,) = cursor.fetchone()
    return JsonResponse({"id": row_id}, status=201)


urlpatterns = [path("bench/bare", bare_insert), *site_urlpatterns]
