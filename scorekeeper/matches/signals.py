"""What the matches announce to the apps built on them, which matches itself does not know.

``match_changed`` is sent (``sender=Match``, with ``match`` and ``kind``) by the services of
scorekeeper.matches when a write changes what a match counts for:

- ``"finish"``: the hand that finishes the match was recorded;
- ``"correct"``: a hand of a match that was or now is finished got a new version (a
  correction, or a recompute of the match that changed a hand);
- ``"void"``: a finished match was set aside;
- ``"reopen"``: a void match was reopened and is finished;
- ``"confirm"``: the other side's answer made a finished match confirmed (every current hand
  confirmed);
- ``"unconfirm"``: a dispute made a confirmed finished match unconfirmed again. (A correction
  empties the confirmation too, but is announced as ``"correct"``.)

It is sent inside the write's transaction, after the match row is saved, and with ``send``:
whatever a receiver writes commits or rolls back with the write, and a receiver's error is not
swallowed but undoes the write. So a receiver that records the change (the ratings' event and
its outbox message) can never lose one; work that must wait for the commit belongs in
``transaction.on_commit`` or the outbox, not in the receiver itself.
"""

from __future__ import annotations

from django.dispatch import Signal

FINISH = "finish"
CORRECT = "correct"
VOID = "void"
REOPEN = "reopen"
CONFIRM = "confirm"
UNCONFIRM = "unconfirm"
#: The kinds ``match_changed`` carries.
KINDS = (FINISH, CORRECT, VOID, REOPEN, CONFIRM, UNCONFIRM)

match_changed = Signal()

#: Sent (``sender=Player``, with ``player``, ``into``, ``games`` and ``by``) by
#: ``services.player_merge`` inside its transaction, once the duplicate ``player``'s seats are
#: ``into``'s: ``games`` are the games of the finished matches whose seats moved, whose ratings
#: must be rebuilt (the ratings start a recompute of those pools).
player_merged = Signal()
