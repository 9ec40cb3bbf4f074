"""``manage.py token_create USERNAME``: a new API token for a user, as an administrator.

Prints the key (shown only this once: the database keeps its digest) and its expiry.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from api.tokens import token_create


class Command(BaseCommand):
    help = "Create an API token for USERNAME (a new device); prints the key and its expiry."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no user {username!r}")
        instance, key = token_create(user=user)
        self.stdout.write(key)
        self.stderr.write(f"expires {instance.expiry.isoformat() if instance.expiry else 'never'}")
