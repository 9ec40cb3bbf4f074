"""What the accounts announce to the apps above them."""

from django.dispatch import Signal

#: An account was closed at its holder's request (``services.account_delete``): ``user``.
account_deleted = Signal()
