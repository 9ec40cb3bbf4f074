from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from scorekeeper.accounts.signals import account_deleted

        from . import tokens

        account_deleted.connect(tokens.tokens_of_deleted_account_revoke, dispatch_uid="api-tokens-revoke")
