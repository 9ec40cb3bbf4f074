"""A transactional outbox: background work that is never lost.

A write that needs work done after it (rate a finished match, recompute a match) calls
``outbox_enqueue`` inside its own transaction: the message row commits or rolls back with the
write. After the commit it is handed to Celery; when the broker is down that fails quickly and
quietly (the request never waits on Redis), and the beat task ``outbox.sweep`` hands it over
again a minute later. A task marks its message done only after it ran to the end, so a worker
that died mid-task (or a Redis that lost its queue) gets the message redelivered by the sweep.
Tasks behind the outbox must therefore be idempotent.
"""
