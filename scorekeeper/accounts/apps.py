from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "scorekeeper.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from allauth.account.signals import email_confirmed, user_signed_up

        from . import invitations

        user_signed_up.connect(invitations.on_signed_up, dispatch_uid="accounts-signed-up")
        email_confirmed.connect(invitations.on_email_confirmed, dispatch_uid="accounts-email-confirmed")
