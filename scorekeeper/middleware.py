"""A request that answers 5xx has written nothing.

``AtomicWritesMiddleware`` runs every request that may write (any method but GET, HEAD,
OPTIONS, TRACE) in one transaction that also covers the rendering of the answer: a view
returns a lazy response (DRF's, a TemplateResponse) that Django renders only after the view,
so ``ATOMIC_REQUESTS`` would commit before an error in the rendering turned the answer into a
500. Here the transaction is rolled back whenever the answer is a 5xx, whether the view, the
rendering or a crash made it (Django turns an exception into the 500 response before it gets
here). The writes the services make in their own ``atomic`` blocks are nested in it (their
savepoints), and ``on_commit`` work (the outbox) is handed over after this commit. A COMMIT that
fails (the database went away, before or after it committed) raises out of here and the
handler500 answers it 503 (``api.exceptions``): a request is acknowledged only by an answer sent
after its commit, and a retry with its ``Idempotency-Key`` replays the answer if it did commit.
"""

from __future__ import annotations

from django.db import transaction

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


class AtomicWritesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in SAFE_METHODS:
            return self.get_response(request)
        with transaction.atomic():
            response = self.get_response(request)
            if response.status_code >= 500:
                transaction.set_rollback(True)
        return response
