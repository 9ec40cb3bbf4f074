"""A transactional outbox: background work that is never lost.

A write that needs work done after it (rate a finished match, recompute a match) calls
``outbox_enqueue`` inside its own transaction: the message row commits or rolls back with the
write. After the commit it is handed to Celery; when the broker is down that fails quickly and
quietly (the request never waits on Redis), and the beat task ``outbox.sweep`` hands it over
again seconds later. A task marks its message done only after it ran to the end, and beats while
it runs, so a worker that died or froze mid-task (or a Redis that lost its queue) gets the
message redelivered by the sweep, within the bound of ``checks.py`` (docs/ratings.md,
"Recovery"). Tasks behind the outbox must therefore be idempotent.
"""
